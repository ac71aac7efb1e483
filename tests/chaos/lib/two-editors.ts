// Two people edit one application through the app at once, on the same fields and on
// different ones, interleaved. Every write the app acknowledged must be in the Portal at the end, or superseded by
// a later acknowledged write to the same field.
import { mulberry32 } from '@/server/sandbox/controls/faults';
import { Editor, signIn, verify, type Verdict } from './editor';
import { newApplication, portalAnswers } from './portal';
import type { ChaosStack } from './stack';

/** Both write legal_name and contact_name; each also has a field of its own. */
const FIELDS = {
  'editor-1': ['legal_name', 'contact_name', 'contact_role'],
  'editor-2': ['legal_name', 'contact_name', 'accountant_name'],
} as const;

export interface TwoEditorsResult extends Verdict {
  sent: number;
  conflicts: number;
  errorsShown: number;
  seconds: number;
}

export async function runTwoEditors(stack: ChaosStack, o: { edits: number; seed: number }): Promise<TwoEditorsResult> {
  const applicationId = await newApplication(stack.sandbox, 'Two Editors Ltd');
  const origin = stack.instances[0]!.url;
  const editors = await Promise.all(
    Object.keys(FIELDS).map(async (name) => {
      const { email, password } = await stack.newStaff(name);
      return new Editor(name, await signIn(origin, email, password), stack.balancer, applicationId);
    }),
  );
  const started = performance.now();
  await Promise.all(
    editors.map(async (editor, n) => {
      const random = mulberry32(o.seed + n);
      const fields = FIELDS[editor.name as keyof typeof FIELDS];
      await editor.open();
      for (let i = 1; i <= o.edits; i++) {
        // A pause now and then, so the two interleave differently through the run.
        if (random() < 0.2) await new Promise((r) => setTimeout(r, Math.floor(random() * 20)));
        await editor.edit(fields[Math.floor(random() * fields.length)]!, `${editor.name} edit ${i}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const final = await portalAnswers(stack.sandbox, applicationId);
  const verdict = verify(
    editors.flatMap((e) => e.acks),
    (f) => final.get(f),
  );
  const sum = (k: 'sent' | 'conflicts' | 'errorsShown') => editors.reduce((n, e) => n + e.stats[k], 0);
  return { ...verdict, sent: sum('sent'), conflicts: sum('conflicts'), errorsShown: sum('errorsShown'), seconds };
}
