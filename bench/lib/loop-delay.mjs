// Preloaded into a server the bench starts (`node --import bench/lib/loop-delay.mjs dist/server/main.js`): records
// the event loop's delay from the process's first moment, and again from the moment it starts to listen, and as the
// process exits prints its longest stalls and the peak resident memory to stderr as one line,
// `loop-delay {"maxMs":…,"p99Ms":…,"servingMaxMs":…,"peakRssMb":…}` (servingMaxMs: once listening).
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const serving = monitorEventLoopDelay({ resolution: 5 });
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  serving.enable();
  return listen.apply(this, args);
};
let peakRss = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);
sample.unref();
process.on('exit', () => {
  const line = {
    maxMs: Math.round(delay.max / 1e6),
    p99Ms: Math.round(delay.percentile(99) / 1e6),
    servingMaxMs: Math.round(serving.max / 1e6),
    peakRssMb: Math.round(Math.max(peakRss, process.memoryUsage.rss()) / 2 ** 20),
  };
  process.stderr.write(`loop-delay ${JSON.stringify(line)}\n`);
});
