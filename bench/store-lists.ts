// Lists through the file store alone, no HTTP: `--rows` assets of bench/scale.ts's shape (`report 123.txt`, tags
// `t<n mod 10>` and `u<n>`) inserted into a store in a temp folder, the find index filled, then 200 lists of 50,
// newest first, of each kind of search and tag filter (ms p50 / p99) and the memory held after (collected first
// under --expose-gc). `--tree` runs another checkout's store (a worktree of an older commit) for a before → after
// pair.
//   node --expose-gc --import tsx bench/store-lists.ts [--tree <checkout>] [--rows 100000]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CollectionSpec, Row } from '../server/store/types.js';

const { values } = parseArgs({ options: { tree: { type: 'string' }, rows: { type: 'string' } } });
const tree = resolve(values.tree ?? '.');
const rows = Number(values.rows ?? 100_000);
const { openFileStore } = (await import(
  join(tree, 'server/store/file/store.ts')
)) as typeof import('../server/store/file/store.js');
const { assetsCollection, searchTextOf } = (await import(
  join(tree, 'server/domains/assets/collections.ts')
)) as typeof import('../server/domains/assets/collections.js');

const WORDS = ['report', 'invoice', 'photo', 'meeting', 'draft', 'summary', 'scan', 'memo'];
const nameOf = (i: number) => `${WORDS[i % WORDS.length]} ${i}.txt`;
const quiet = { info() {}, warn() {}, error() {} };
const dir = await mkdtemp(join(tmpdir(), 'folio-store-lists-'));
const store = await openFileStore({ dataDir: dir, fsync: false, log: quiet as never });
try {
  const assets = store.collection(assetsCollection, 'ws_bench');
  for (let i = 0; i < rows; i++) {
    const named = { displayName: nameOf(i), filename: nameOf(i), tags: [`t${i % 10}`, `u${i}`] };
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    await assets.insert({
      id: `ast_${String(i).padStart(12, '0')}`,
      key: `k${i}`,
      ...named,
      type: 'document',
      size: 10,
      contentType: 'text/plain',
      sha256: String(i),
      searchText: searchTextOf(named),
      createdAt: at,
      updatedAt: at,
    });
  }
  await store.fillFindIndexes?.([assetsCollection as unknown as CollectionSpec<Row>]);
  const rare = rows - 4242;
  const search = (text: string) => ({ search: { text, fields: ['searchText' as const] } });
  const tags = (tag: string) => ({ where: { tags: { hasAll: [tag] } } });
  const lists = {
    'search common (`report`, 1 in 8)': search('report'),
    'search rare (one name)': search(nameOf(rare)),
    'search none': search('no such words'),
    'search of two characters (`rt`)': search('rt'),
    'tags common (`t3`)': tags('t3'),
    [`tags rare (\`u${rare}\`)`]: tags(`u${rare}`),
    'tags none': tags('nothing'),
    'a tag and a search (`t3`, `memo`)': { ...tags('t3'), ...search('memo') },
  };
  console.log(`${tree}, ${rows.toLocaleString('en')} assets, ms p50 / p99`);
  for (const [label, query] of Object.entries(lists)) {
    const ms: number[] = [];
    for (let n = 0; n < 200; n++) {
      const began = performance.now();
      await assets.list({ limit: 50, orderBy: [['createdAt', 'desc']], ...query });
      ms.push(performance.now() - began);
    }
    ms.sort((a, b) => a - b);
    console.log(`| ${label} | ${ms[100]!.toFixed(2)} / ${ms[197]!.toFixed(2)} |`);
  }
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  console.log(`heap ${Math.round(heapUsed / 1e6)} MB, array buffers ${Math.round(arrayBuffers / 1e6)} MB`);
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
