// npm run chaos — simulated editors on two app instances, nothing typed may be lost (see lib/chaos.ts). Options: EDITORS (6), EDITS (per editor,
// 100), BROWSERS (2), BROWSER_EDITS (6), COMMANDS (of each kind, 6), CHAOS_SEED (7). Prints the figures and a
// last JSON line; exits 1 when an acknowledged edit was lost, a command was duplicated or one went missing, or a
// message was lost or delivered twice.
import { CHAOS_FAULTS, chaosReport, runChaos, type ChaosOptions } from './lib/chaos';
import { startChaosStack } from './lib/stack';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main() {
  const options: ChaosOptions = {
    editors: env('EDITORS', 6),
    editsPerEditor: env('EDITS', 100),
    browsers: env('BROWSERS', 2),
    browserEdits: env('BROWSER_EDITS', 6),
    commands: env('COMMANDS', 6),
    restartAt: 0.4,
    seed: env('CHAOS_SEED', 7),
    faults: CHAOS_FAULTS,
  };
  const stack = await startChaosStack({ instances: 2, seed: options.seed });
  try {
    const r = await runChaos(stack, options);
    process.stdout.write(chaosReport(r, options));
    process.exitCode = r.lost === 0 && r.commands_duplicated === 0 && r.commands_missing === 0 && r.mail.duplicated === 0 && r.mail.lost === 0 ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
