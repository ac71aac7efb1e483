// Benchmark of the Portal sandbox alone: answers page read and answers write, with a closed-loop HTTP
// load generator in this process and the sandbox in its own. It is the "direct" baseline against which
// the BFF's proxy overhead is measured. Run: npm run bench:sandbox
// (BENCH_SECONDS and BENCH_CONNECTIONS change the load.)
import { DEMO_KEYS } from '@/server/sandbox/keys';
import { printResults, runLoad, warmUp } from './lib/load';
import { prepareWriteTargets, readLoad, writeLoad } from './lib/scenarios';
import { spawnSandbox } from './lib/spawn-sandbox';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const apiKey = DEMO_KEYS.find((k) => k.id === 'key_demofull')!.token;

async function main() {
  const sandbox = await spawnSandbox();
  try {
    const headers = { Authorization: `Bearer ${apiKey}` };
    const readUrl = `${sandbox.baseUrl}client-intake-applications/ciappl_meridian/answers/?page_size=100`;
    console.log(`Sandbox at ${sandbox.baseUrl}; ${connections} connections, ${seconds} s per scenario`);

    const read = readLoad('direct: GET answers (100/page)', readUrl, headers, connections, seconds);
    await warmUp(read);
    const readResult = await runLoad(read);
    const write = writeLoad('direct: PATCH answers (1 field)', await prepareWriteTargets(sandbox.baseUrl, apiKey, connections), headers, seconds);
    await warmUp(write);
    const writeResult = await runLoad(write);
    printResults('Portal sandbox, direct (baseline)', [readResult, writeResult]);
    if (readResult.failures + writeResult.failures > 0) {
      console.error('Some requests failed: the figures above are not valid.');
      process.exitCode = 1;
    }
  } finally {
    await sandbox.stop();
  }
}

void main();
