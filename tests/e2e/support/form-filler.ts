import { expect, type Locator, type Page } from '@playwright/test';
import type { ContractView } from '../../../lib/bff/applications';
import { formModel, toInputValue, type FieldModel, type FormModel, type GroupModel, type QuestionModel } from '../../../lib/forms';

/**
 * Fills a contract-driven form through the page the way a person would (click the section, type, pick,
 * tick, attach), using each field's `example` from the contract, and checks it back after a reload.
 * Generic: it reads the contract, nothing here knows the funding form.
 */

export const TINY_PDF = { name: 'evidence.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% e2e test file\n') };

export interface FilledField {
  readonly field: FieldModel;
  /** Where the field sits: top level, or the nth item (0-based) of each group on the way down. */
  readonly path: readonly { blockKey: string; index: number }[];
  readonly example: unknown;
}

export async function readContract(page: Page, applicationId: string): Promise<ContractView> {
  return readContractFrom(page, `/api/applications/${applicationId}`);
}

/** The contract of a deal application (its routes live under /api/deal-applications). */
export async function readDealContract(page: Page, dealApplicationId: string): Promise<ContractView> {
  return readContractFrom(page, `/api/deal-applications/${dealApplicationId}`);
}

async function readContractFrom(page: Page, apiBase: string): Promise<ContractView> {
  const res = await page.request.get(`${apiBase}/contract`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { contract: ContractView }).contract;
}

function exampleOf(contract: ContractView, field: FieldModel): unknown {
  const q = contract.questions.find((x) => x.schema_key === field.schemaKey);
  return q?.fields.find((f) => f.field_key === field.fieldKey)?.example ?? null;
}

const attr = (s: string) => s.replace(/["\\]/g, '\\$&');

/** The first input of a field within a scope (radios and boxes after the first carry a suffix). */
const inputOf = (scope: Locator, field: FieldModel) =>
  scope.locator(`[id^="f-"][id$=".${attr(field.schemaKey)}.${attr(field.fieldKey)}"]`).first();

const optionOf = (scope: Locator, field: FieldModel, value: string) =>
  scope.locator(`input[name$=".${attr(field.schemaKey)}.${attr(field.fieldKey)}"][value="${attr(value)}"]`);

/** Items of a group directly in a scope (not those of nested groups). */
const itemsOf = (scope: Locator, blockKey: string) => scope.locator(`[data-group="${attr(blockKey)}"] > ol.items > li`);

async function fillField(scope: Locator, field: FieldModel, example: unknown) {
  // Contracts give file questions no example: any accepted document will do.
  if ((example === null || example === undefined) && field.widget !== 'file') return false;
  switch (field.widget) {
    case 'file': {
      await inputOf(scope, field).setInputFiles(TINY_PDF);
      await expect(scope.getByRole('link', { name: TINY_PDF.name }).first()).toBeVisible({ timeout: 15_000 });
      return true;
    }
    case 'select':
      await inputOf(scope, field).selectOption(String(example));
      return true;
    case 'radio':
      await optionOf(scope, field, String(example)).check();
      return true;
    case 'yes-no':
      await optionOf(scope, field, example === true ? 'true' : 'false').check();
      return true;
    case 'checkbox':
      if (example === true) await inputOf(scope, field).check();
      return example === true;
    case 'checkbox-group':
      for (const v of Array.isArray(example) ? example : [example]) await optionOf(scope, field, String(v)).check();
      return true;
    default: {
      const text = toInputValue(field, example as never);
      await inputOf(scope, field).fill(typeof text === 'string' ? text : String(text));
      return true;
    }
  }
}

async function expectField(scope: Locator, field: FieldModel, example: unknown) {
  switch (field.widget) {
    case 'file':
      await expect(scope.getByRole('link', { name: TINY_PDF.name }).first()).toBeVisible();
      return;
    case 'select':
      await expect(inputOf(scope, field)).toHaveValue(String(example));
      return;
    case 'radio':
      await expect(optionOf(scope, field, String(example))).toBeChecked();
      return;
    case 'yes-no':
      await expect(optionOf(scope, field, example === true ? 'true' : 'false')).toBeChecked();
      return;
    case 'checkbox':
      await expect(inputOf(scope, field)).toBeChecked({ checked: example === true });
      return;
    case 'checkbox-group':
      for (const v of Array.isArray(example) ? example : [example]) await expect(optionOf(scope, field, String(v))).toBeChecked();
      return;
    default: {
      const text = toInputValue(field, example as never);
      await expect(inputOf(scope, field)).toHaveValue(typeof text === 'string' ? text : String(text));
    }
  }
}

export async function openSection(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).click();
  await expect(page.getByRole('heading', { level: 2, name: label, exact: true })).toBeVisible();
}

const questionIn = (scope: Locator, q: QuestionModel) => scope.locator(`[data-question="${attr(q.schemaKey)}"]`);

/**
 * Answers every field that has an example, section by section, adding one item to every repeatable group
 * (at least min_items) and filling it the same way, nested groups too. Returns what it filled.
 */
export async function fillWholeForm(page: Page, contract: ContractView): Promise<FilledField[]> {
  const model: FormModel = formModel(contract);
  const filled: FilledField[] = [];
  const fillQuestions = async (scope: Locator, questions: readonly QuestionModel[], path: FilledField['path']) => {
    // Twice: an answer may reveal a question placed before it.
    for (let pass = 0; pass < 2; pass++) {
      for (const q of questions) {
        const el = questionIn(scope, q).first();
        if ((await el.count()) === 0) continue;
        for (const field of q.fields) {
          if (filled.some((f) => f.field === field && samePath(f.path, path))) continue;
          const example = exampleOf(contract, field);
          if (await fillField(scope, field, example)) filled.push({ field, path, example });
        }
      }
    }
  };
  const fillGroup = async (scope: Locator, group: GroupModel, path: FilledField['path']) => {
    const want = Math.max(1, group.minItems ?? 0);
    const groupEl = scope.locator(`[data-group="${attr(group.blockKey)}"]`).first();
    for (let n = await itemsOf(scope, group.blockKey).count(); n < want; n++) {
      await groupEl.getByRole('button', { name: /^Add / }).last().click();
      await expect(itemsOf(scope, group.blockKey)).toHaveCount(n + 1);
    }
    for (let i = 0; i < want; i++) {
      const item = itemsOf(scope, group.blockKey).nth(i);
      const itemPath = [...path, { blockKey: group.blockKey, index: i }];
      await fillQuestions(item, group.questions, itemPath);
      for (const child of group.children) await fillGroup(item, child, itemPath);
    }
  };
  for (const section of model.sections) {
    await openSection(page, section.label);
    const scope = page.locator('section.form-section');
    await fillQuestions(scope, section.entries.flatMap((e) => (e.type === 'question' ? [e.question] : [])), []);
    for (const group of section.groups) await fillGroup(scope, group, []);
  }
  return filled;
}

const samePath = (a: FilledField['path'], b: FilledField['path']) =>
  a.length === b.length && a.every((p, i) => p.blockKey === b[i]!.blockKey && p.index === b[i]!.index);

/** Every filled value is in its input again (after a reload, in another browser, ...). */
export async function expectFilled(page: Page, filled: readonly FilledField[]) {
  const bySection = new Map<string, FilledField[]>();
  for (const f of filled) bySection.set(f.field.question.sectionKey, [...(bySection.get(f.field.question.sectionKey) ?? []), f]);
  for (const [sectionKey, list] of bySection) {
    await page.getByRole('navigation', { name: 'Sections' }).locator(`a[href="?section=${encodeURIComponent(sectionKey)}"]`).click();
    const section = page.locator(`section.form-section[aria-labelledby="section-${attr(sectionKey)}"]`);
    await expect(section).toBeVisible();
    for (const f of list) {
      let scope = section;
      for (const step of f.path) scope = itemsOf(scope, step.blockKey).nth(step.index);
      await expectField(scope, f.field, f.example);
    }
  }
}
