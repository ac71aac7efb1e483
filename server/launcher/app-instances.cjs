// Runs `next start <arguments>` as APP_INSTANCES processes behind one port, with Node's cluster module:
// the primary holds the listening socket and hands connections to the instances in turn, so a 2-core
// machine serves on both cores. Each instance is a whole app server (its own database pool, caches and
// LISTEN connection); what they share lives in PostgreSQL, which is why the embedded database (one
// process only) never runs here. An instance that dies ends the others: a half-sized app must not
// look healthy.
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const cluster = require('node:cluster');

const instances = Number(process.env.APP_INSTANCES);
if (!Number.isInteger(instances) || instances < 1) {
  console.error(`APP_INSTANCES must be a whole number ≥ 1 (got ${JSON.stringify(process.env.APP_INSTANCES)})`);
  process.exit(1);
}

cluster.setupPrimary({ exec: require.resolve('next/dist/bin/next'), args: ['start', ...process.argv.slice(2)] });
for (let i = 0; i < instances; i++) cluster.fork({ APP_INSTANCE: String(i + 1) });

let stopping = false;
const stopAll = (signal) => {
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));

let exitCode = 0;
cluster.on('exit', (worker, code, signal) => {
  if (!stopping) {
    console.error(`app instance ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); stopping the others`);
    exitCode = code || 1;
    stopAll('SIGTERM');
  }
  if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
});
