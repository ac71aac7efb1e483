// npm run chaos:edits — two editors × 500 edits on one application through the app: every edit that was saved must be there at the end.
// Options: EDITS (per editor, default 500), CHAOS_SEED. Prints the counts, then one JSON line.
import { runTwoEditors } from './lib/two-editors';
import { startChaosStack } from './lib/stack';

async function main() {
  const edits = Number(process.env.EDITS ?? 500);
  const seed = Number(process.env.CHAOS_SEED ?? 11);
  const stack = await startChaosStack({ instances: 1 });
  try {
    const r = await runTwoEditors(stack, { edits, seed });
    const out = process.stdout;
    out.write(`Two editors × ${edits} edits on one application (seed ${seed}), ${r.seconds.toFixed(1)} s\n`);
    out.write(`  sent          ${r.sent}\n  acknowledged  ${r.acknowledged}\n  superseded    ${r.superseded}\n  lost          ${r.lost}\n  412s          ${r.conflicts}\n  errors shown  ${r.errorsShown}\n`);
    for (const l of r.lostExamples) out.write(`  LOST: ${l}\n`);
    out.write(`${JSON.stringify({ run: 'two-editors', edits_per_editor: edits, sent: r.sent, acknowledged: r.acknowledged, superseded: r.superseded, lost: r.lost, conflicts_412: r.conflicts, errors_shown: r.errorsShown, seconds: Number(r.seconds.toFixed(1)) })}\n`);
    process.exitCode = r.lost === 0 && r.acknowledged === r.sent ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
