// `npm run sandbox` – the Portal sandbox on its own, configured by SANDBOX_* environment variables.
import { optionsFromEnv } from './config';
import { startSandbox } from './server';

async function main() {
  let options;
  try {
    options = optionsFromEnv(process.env);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const running = await startSandbox(options);
  console.log(`Portal sandbox (${options.environment}, seed: ${options.seed}) at ${running.baseUrl}`);
  if (options.dataFile) console.log(`State is kept in ${options.dataFile}`);
  console.log('API keys:');
  for (const k of options.keys) console.log(`  ${k.label.padEnd(38)} ${k.token}`);
  console.log(`Public OpenAPI document: ${running.origin}/generated/openapi.json`);
  if (options.webhookUrl) console.log(`Webhooks (Standard Webhooks) are sent to ${options.webhookUrl}`);
  if (options.controls) console.log(`Test controls (no API key; never enable in shared environments): ${running.origin}/_sandbox/controls`);
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
