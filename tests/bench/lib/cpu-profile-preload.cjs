// Preloaded into the Next server by the BFF benchmark (NODE_OPTIONS=--require …) when BENCH_CPU_PROF is
// set: Node refuses --cpu-prof in NODE_OPTIONS, so this starts the V8 profiler through the inspector and
// writes a .cpuprofile (open it in Chrome DevTools or speedscope) into BENCH_CPU_PROF when the process exits.
/* eslint-disable @typescript-eslint/no-require-imports */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  // The main thread's inspector session answers synchronously, so this works in an 'exit' listener.
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(join(dir, `next-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
