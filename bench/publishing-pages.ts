/**
 * Publishing serve bench, peers in the same run:
 *   - page route throughput (wrk): GET /d/<slug> (a cached render, ETag), the same with If-None-Match (304),
 *     and the same bytes served as an asset from /f/<key> (the plain file route);
 *   - event-loop delay of the server while a 100,000-row chart renders: GET /api/v1/me under wrk load, the
 *     loop's p99 delay measured inside the server process; first with the render in a render process (how
 *     Folio runs), then with the same render called on the main thread (what the pool avoids). Goal: p99 < 50 ms.
 * `npx tsx bench/publishing-pages.ts [--seconds 5]`
 */
import { renderChart } from '../server/domains/publishing/charts/render-chart.js';
import { startTestServer } from '../tests/helpers/server.js';
import { wrk } from './lib/wrk.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 5;
const srv = await startTestServer({ limits: { jsonBytes: 64 << 20 } as never });
const key = await srv.createKey({ services: ['diagrams', 'charts', 'assets'] });
const api = srv.as({ bearer: key });

// A published, public diagram page (rendered once, then served from the render cache).
const svg = `<svg viewBox="0 0 640 200">${Array.from({ length: 12 }, (_, i) => `<rect class="node" x="${(i % 4) * 160}" y="${Math.floor(i / 4) * 70}" width="140" height="48" rx="8"/><text class="label" x="${(i % 4) * 160 + 70}" y="${Math.floor(i / 4) * 70 + 24}">Step ${i}</text>`).join('')}</svg>`;
const { slug } = (await (
  await api('/api/v1/diagrams', { method: 'POST', body: JSON.stringify({ title: 'Bench', svg }) })
).json()) as { slug: string };
await srv.as(srv.owner)(`/api/v1/diagrams/${slug}/visibility`, {
  method: 'POST',
  body: JSON.stringify({ visibility: 'public' }),
});
const page = await fetch(`${srv.url}/d/${slug}`);
const etag = page.headers.get('etag')!;
const bytes = Buffer.from(await page.arrayBuffer());
const form = new FormData();
form.append('file', new Blob([bytes], { type: 'text/html' }), 'page.html');
const asset = (await (
  await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  })
).json()) as { key: string };

console.log(`page: ${bytes.length} bytes; wrk 4 connections, ${seconds} s each\n`);
console.log('| route | req/s | p50 ms | p99 ms |\n|---|---|---|---|');
for (const [name, url, headers] of [
  [`GET /d/<slug>`, `${srv.url}/d/${slug}`, {}],
  [`GET /d/<slug> with If-None-Match (304)`, `${srv.url}/d/${slug}`, { 'If-None-Match': etag }],
  [`GET /f/<key>, same bytes (peer)`, `${srv.url}/f/${asset.key}`, {}],
] as const) {
  const run = await wrk(url, { connections: 4, seconds, headers });
  console.log(
    `| ${name} | ${run.reqPerSec.toFixed(0)} | ${run.p50.toFixed(2)} | ${run.p99.toFixed(2)} |${run.non2xx ? ` (${run.non2xx} non-2xx)` : ''}`,
  );
}

// 100,000 rows as a CSV asset of the workspace.
const csv = `t,v,g\n${Array.from({ length: 100_000 }, (_, i) => `${i},${(Math.sin(i / 50) * 100).toFixed(2)},s${i % 3}`).join('\n')}\n`;
const csvForm = new FormData();
csvForm.append('file', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
const data = (await (
  await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: csvForm,
    headers: { authorization: `Bearer ${key}` },
  })
).json()) as { id: string };
const spec = {
  data: { url: `asset:${data.id}` },
  mark: 'line',
  encoding: {
    x: { field: 't', type: 'quantitative' },
    y: { field: 'v', type: 'quantitative' },
    color: { field: 'g', type: 'nominal' },
  },
  width: 600,
  height: 300,
};
await api('/api/v1/charts/preview', { method: 'POST', body: JSON.stringify({ spec }) }); // warm the workers

/** Event-loop lag: how late a 10 ms timer fires, sampled the whole time (a blocked loop shows as one long sample). */
function lagSampler() {
  const samples: number[] = [];
  let expected = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    samples.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  return () => {
    clearInterval(timer);
    samples.push(Math.max(0, performance.now() - expected));
    const sorted = samples.sort((a, b) => a - b);
    return { p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
  };
}

async function delayWhile(render: () => Promise<unknown>) {
  const load = wrk(`${srv.url}/api/v1/me`, {
    connections: 4,
    seconds: 8,
    headers: { authorization: `Bearer ${key}` },
  });
  await new Promise((r) => setTimeout(r, 500));
  const stop = lagSampler();
  const started = performance.now();
  await render();
  const renderMs = performance.now() - started;
  const lag = stop();
  const me = await load;
  return { renderMs, ...lag, me };
}

console.log(
  '\n| 100k-row chart render while GET /api/v1/me runs | render ms | loop delay p99 ms | max ms | /me p99 ms | /me req/s |\n|---|---|---|---|---|---|',
);
const rows = csv;
for (const [name, render] of [
  ['no render (the floor: /me load alone, 5 s)', () => new Promise((r) => setTimeout(r, 5000))],
  [
    'in a render process (POST /api/v1/charts/preview)',
    () =>
      api('/api/v1/charts/preview', { method: 'POST', body: JSON.stringify({ spec }) }).then((r) =>
        r.arrayBuffer(),
      ),
  ],
  [
    'on the main thread (same renderChart, no pool)',
    () => renderChart({ spec, assets: { [data.id]: { text: rows, format: 'csv' } }, png: {} }),
  ],
] as const) {
  const r = await delayWhile(render as () => Promise<unknown>);
  console.log(
    `| ${name} | ${r.renderMs.toFixed(0)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.me.p99.toFixed(1)} | ${r.me.reqPerSec.toFixed(0)} |`,
  );
}
await srv.close();
