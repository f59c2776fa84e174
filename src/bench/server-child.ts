// Child process: a kapi server (temporary data dir, random port) started with the kube-apiserver
// flags given as arguments: none for the embedded store, --etcd-servers <url> for etcd. Prints
// {"url","kubeconfigPath","dataDir"} on one line when ready; shuts down when stdin closes.
// Commands on stdin, one per line, each answered with one JSON line: `stall-reset` clears the
// event-loop delay histogram, `stall` reports its longest delay ({"maxMs",…}): the longest time
// this server could not serve anyone (the larger of the histogram's max and of the longest gap
// between ticks of a 5 ms interval, which cross-checks it).
// No Go counterpart: the bench.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startServer } from '../index.ts';

const server = await startServer({ flags: process.argv.slice(2) });
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
// A cross-check of the histogram: the longest gap between two ticks of a 5 ms interval.
let lastTick = performance.now();
let worstGap = 0;
setInterval(() => {
  const now = performance.now();
  worstGap = Math.max(worstGap, now - lastTick - 5);
  lastTick = now;
}, 5).unref();
process.stdout.write(`${JSON.stringify({ url: server.url, kubeconfigPath: server.kubeconfigPath, dataDir: server.dataDir })}\n`);

let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  delay.disable();
  server.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
};
const ms = (ns: number): number => Math.round(ns / 1e4) / 100;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  switch (line.trim()) {
    case 'stall-reset':
      delay.reset();
      worstGap = 0;
      process.stdout.write('{"ok":true}\n');
      return;
    case 'stall':
      // This line may be read in the same poll phase that ended a stall, before the histogram's
      // timer has run and recorded it: answer after the timers had a turn.
      setTimeout(() => process.stdout.write(`${JSON.stringify({
        maxMs: Math.max(ms(delay.max), Math.round(worstGap * 100) / 100), histogramMaxMs: ms(delay.max),
        gapMaxMs: Math.round(worstGap * 100) / 100, p99Ms: ms(delay.percentile(99)),
      })}\n`), 20);
      return;
    default:
      process.stdout.write(`${JSON.stringify({ error: `unknown command ${line}` })}\n`);
  }
});
lines.on('close', shutdown);
process.stdin.on('error', shutdown);
process.on('SIGTERM', shutdown);
