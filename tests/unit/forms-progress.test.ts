import { describe, expect, it } from 'vitest';
import {
  computeVisibility,
  groupName,
  itemName,
  progressOf,
  type FormItem,
  type FormValues,
} from '@/lib/forms';
import { emptyFunding as empty, funding, top } from './support/funding-form';

const progress = (values: FormValues, items: FormItem[] = []) =>
  progressOf(funding, values, computeVisibility(funding, values, items));

describe('progress per section', () => {
  it('counts required fields of visible questions, and the owners group minimum', () => {
    const p = progress(empty);
    const bySection = Object.fromEntries(p.sections.map((s) => [s.sectionKey, [s.answered, s.total]]));
    expect(bySection).toEqual({
      // legal_name, company_type, date_established, industry, employee_count, 4 required address lines,
      // business_description; registration_number is hidden until an incorporated type is chosen.
      business: [0, 10],
      contact: [0, 3],
      // purpose_details is hidden until "other" is chosen.
      funding: [0, 4],
      // existing_debt_amount is hidden until has_existing_debt is yes.
      financials: [0, 4],
      owners: [0, 1],
      assets: [0, 0],
      declarations: [0, 4],
    });
    expect(p.sections.find((s) => s.sectionKey === 'assets')).toMatchObject({ percent: 100, complete: true });
    expect(p.total).toBe(26);
    expect(p.percent).toBe(0);
  });

  it('moves as answers arrive and as questions appear', () => {
    const values = {
      ...empty,
      [top('legal_name')]: 'Meridian',
      [top('company_type')]: 'limited_company',
      [top('business_address', 'line1')]: '14 Foundry Lane',
    };
    const business = progress(values).sections.find((s) => s.sectionKey === 'business');
    // registration_number appeared: 11 required, 3 answered.
    expect(business).toMatchObject({ answered: 3, total: 11, percent: 27, complete: false });
  });

  it('counts fields of every item and nested item, and a group that is short of items', () => {
    const items: FormItem[] = [
      { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
      { itemId: 'ritem_a1', blockKey: 'owner_addresses', parentItemId: 'ritem_o1', order: 0 },
    ];
    const values = {
      ...empty,
      [itemName('ritem_o1', 'owner_full_name', 'value')]: 'Alex Morgan',
      [itemName('ritem_o1', 'owner_is_guarantor', 'value')]: true,
    };
    const owners = progress(values, items).sections.find((s) => s.sectionKey === 'owners');
    // min_items met (1) + owner: 5 required + guarantee limit (visible) + address item: 4 lines + years.
    expect(owners).toMatchObject({ answered: 3, total: 12 });
  });
});

describe('what is still missing', () => {
  it('lists missing required fields in display order, with labels for links', () => {
    const missing = progress(empty).missing;
    expect(missing[0]).toEqual({
      name: top('legal_name'),
      sectionKey: 'business',
      kind: 'field',
      label: 'Legal business name',
      groupKey: null,
      groupLabel: null,
      itemId: null,
      itemNumber: null,
    });
    expect(missing.find((m) => m.name === top('business_address', 'postal_code'))?.label).toBe(
      'Registered or trading address – Postcode or ZIP code',
    );
    expect(missing.find((m) => m.kind === 'group')).toEqual({
      name: groupName('owners', null),
      sectionKey: 'owners',
      kind: 'group',
      label: 'Owners',
      groupKey: 'owners',
      groupLabel: 'Owners',
      itemId: null,
      itemNumber: null,
    });
    const sections = missing.map((m) => m.sectionKey);
    expect(sections.indexOf('declarations')).toBeGreaterThan(sections.lastIndexOf('business'));
  });

  it('names the item a missing field is in, counted from 1', () => {
    const items: FormItem[] = [
      { itemId: 'ritem_o1', blockKey: 'owners', parentItemId: null, order: 0 },
      { itemId: 'ritem_o2', blockKey: 'owners', parentItemId: null, order: 1 },
    ];
    const missing = progress(empty, items).missing.filter((m) => m.itemId === 'ritem_o2');
    expect(missing[0]).toMatchObject({
      name: itemName('ritem_o2', 'owner_full_name', 'value'),
      label: 'Full name',
      groupKey: 'owners',
      groupLabel: 'Owners',
      itemNumber: 2,
    });
  });

  it('does not count blank text or an unticked declaration as answered', () => {
    const values = { ...empty, [top('legal_name')]: '   ', [top('decl_accurate')]: false };
    const names = progress(values).missing.map((m) => m.name);
    expect(names).toContain(top('legal_name'));
    expect(names).toContain(top('decl_accurate'));
  });
});
