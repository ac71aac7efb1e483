// `npm run sandbox` – the Portal sandbox on its own, configured by SANDBOX_* environment variables. `npm start`
// runs this file as its own child process too: then the sandbox reports its address to the launcher over the
// IPC channel instead of printing it, and stops when the launcher goes away.
import { optionsFromEnv } from './config';
import { startSandbox } from './server';

/** What a launcher that started the sandbox as a child process is told once it listens. */
interface SandboxReady {
  type: 'sandbox-ready';
  baseUrl: string;
  dataFile: string | null;
}

async function main() {
  let options;
  try {
    options = optionsFromEnv(process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const running = await startSandbox(options);
  let closing: Promise<void> | null = null;
  const stop = () => {
    closing ??= running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (process.send) {
    process.on('disconnect', stop);
    process.send({ type: 'sandbox-ready', baseUrl: running.baseUrl, dataFile: options.dataFile } satisfies SandboxReady);
    return;
  }
  console.log(`Portal sandbox (${options.environment}, seed: ${options.seed}) at ${running.baseUrl}`);
  if (options.dataFile) console.log(`State is kept in ${options.dataFile}`);
  console.log('API keys:');
  for (const k of options.keys) console.log(`  ${k.label.padEnd(38)} ${k.token}`);
  console.log(`Public OpenAPI document: ${running.origin}/generated/openapi.json`);
  if (options.webhookUrl) console.log(`Webhooks (Standard Webhooks) are sent to ${options.webhookUrl}`);
  if (options.controls) console.log(`Test controls (no API key; never enable in shared environments): ${running.origin}/_sandbox/controls`);
}

void main();
