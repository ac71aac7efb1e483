import { describe, expect, it } from 'vitest';
import { readStatements, personWithRole, tradingAs } from '@/server/sandbox/autofill/engine/statements';
import { FAIL_TRIGGER, planRun, stepAt } from '@/server/sandbox/autofill/runs';
import { DEFAULT_AUTOFILL_TIMING, configureAutofill, autofillTiming } from '@/server/sandbox/autofill/state';
import type { RunRec } from '@/server/sandbox/autofill/types';
import { DEFAULT_OPTIONS } from '@/server/sandbox/options';
import { Sandbox } from '@/server/sandbox/sandbox';

describe('run plan and timing', () => {
  it('has one unit per evidence source, one per section and one to draft', () => {
    expect(planRun(3, 7)).toEqual({ reading: 3, matching: 7, drafting: 1, total: 11 });
    const run = { source_ids: ['a', 'b', 'c'], total_units: 11 } as RunRec;
    expect([0, 2, 3, 9, 10].map((n) => stepAt(run, n))).toEqual(['reading_evidence', 'reading_evidence', 'matching_fields', 'matching_fields', 'drafting_suggestions']);
  });

  it('spends longer per unit in thinking mode; files take 1.5 s pending and 2 s reading', () => {
    expect(DEFAULT_AUTOFILL_TIMING.runUnitMs.thinking).toBeGreaterThan(DEFAULT_AUTOFILL_TIMING.runUnitMs.fast);
    expect(DEFAULT_AUTOFILL_TIMING).toMatchObject({ filePendingMs: 1_500, fileReadingMs: 2_000 });
    const sb = new Sandbox({ ...DEFAULT_OPTIONS, seed: 'empty' });
    configureAutofill(sb, { filePendingMs: 10 });
    expect(autofillTiming(sb)).toEqual({ ...DEFAULT_AUTOFILL_TIMING, filePendingMs: 10 });
    expect(autofillTiming(new Sandbox({ ...DEFAULT_OPTIONS, seed: 'empty' }))).toBe(DEFAULT_AUTOFILL_TIMING);
    expect(FAIL_TRIGGER).toBe('[[fail]]');
  });
});

describe('statements', () => {
  it('reads "Key: value" lines, headings with their paragraph, and sentences', () => {
    const { statements, sentences } = readStatements(
      ['Legal name: Acme Ltd', '- Employees: 12', '', 'About us:', 'We make things.', 'Lots of them.', '', 'We opened in 2019. Call 0161 496 0000.', 'See https://acme.example'].join('\n'),
      0,
    );
    expect(statements.map((s) => [s.key, s.value, s.rule])).toEqual([
      ['Legal name', 'Acme Ltd', 'key_value'],
      ['Employees', '12', 'key_value'],
      ['About us', 'We make things. Lots of them.', 'heading'],
    ]);
    expect(sentences.map((s) => s.text)).toEqual(['We make things.', 'Lots of them.', 'We opened in 2019.', 'Call 0161 496 0000.', 'See https://acme.example']);
  });

  it('splits "X Ltd (trading as Y)" and "Name (Role)"', () => {
    expect(tradingAs('Harbour Street Hospitality Ltd, trading as Harbour Street Café, is a café.', false)).toEqual({ legal: 'Harbour Street Hospitality Ltd', trading: 'Harbour Street Café' });
    expect(tradingAs('we are trading as Blue Door', false)).toEqual({ trading: 'Blue Door' });
    expect(tradingAs('no marker here', false)).toBeNull();
    expect(personWithRole('Luca Fontana (Owner)')).toEqual({ person: 'Luca Fontana', role: 'Owner' });
    expect(personWithRole('Luca Fontana, Finance director')).toEqual({ person: 'Luca Fontana', role: 'Finance director' });
    expect(personWithRole('Whitfield & Co (Leeds)')).toBeNull();
    const { statements } = readStatements('Contact: Jo Bloggs (Finance director)\nLegal name: Acme Ltd (trading as Acme Tools)', 0);
    expect(statements.map((s) => [s.key, s.value, s.rule])).toEqual([
      ['Contact name', 'Jo Bloggs', 'person_role'],
      ['Contact role', 'Finance director', 'person_role'],
      ['Legal name', 'Acme Ltd', 'key_value'],
      ['trading name', 'Acme Tools', 'trading_as'],
    ]);
  });
});
