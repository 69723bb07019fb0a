// A process that writes to a file store as fast as it can while its journal keeps passing the compaction
// threshold, and prints each acknowledged write, for a test to kill -9 it mid-compaction:
// `node --import tsx tests/helpers/compacting-writer.ts <dataDir> <run>`. Prints `ready` once open, then lines
// `put <id>` (a unit of work inserted the row and its note), `set <id> <n>` (a direct update acknowledged
// version n; versions grow in the order the updates were made) and `del <id>` (a direct remove, announced by
// `deleting <id>` before it is made), each after the write resolved.
import { silentLogger } from '../../server/log.js';
import { openFileStore } from '../../server/store/file/store.js';
import { defineCollection } from '../../server/store/types.js';

const items = defineCollection<{ id: string; version: number; pad: string }>({
  name: 'items',
  scope: 'workspace',
  fields: {},
});
const notes = defineCollection<{ id: string; itemId: string }>({
  name: 'notes',
  scope: 'workspace',
  fields: {},
});

/** Rows every run updates; made by the first run. */
const SEEDED = 2_000;
const PAD = 'p'.repeat(200);

const [dataDir, runArg] = process.argv.slice(2);
const run = Number(runArg);
const store = await openFileStore({ dataDir, fsync: true, compactAtBytes: 30_000, log: silentLogger });
const rows = store.collection(items, 'ws_1');
if ((await rows.count()) === 0)
  for (let i = 0; i < SEEDED; i += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => rows.insert({ id: `s${i + j}`, version: 0, pad: PAD })),
    );
const say = (line: string) => process.stdout.write(`${line}\n`);
say('ready');

const inserted: string[] = [];
async function unitWriter(w: number) {
  for (let n = 0; ; n++) {
    const id = `u${run}-${w}-${n}`;
    await store.unitOfWork('ws_1', async (tx) => {
      await tx.collection(items).insert({ id, version: 0, pad: PAD });
      await tx.collection(notes).insert({ id: `note-${id}`, itemId: id });
    });
    inserted.push(id);
    say(`put ${id}`);
  }
}
let versions = run * 1_000_000;
async function updater(w: number) {
  for (let n = 1; ; n++) {
    const id = `s${(w * 7919 + n * 13) % SEEDED}`;
    const version = ++versions;
    await rows.update(id, { version });
    say(`set ${id} ${version}`);
  }
}
async function remover() {
  for (;;) {
    const id = inserted.shift();
    if (!id || inserted.length < 20) {
      if (id) inserted.unshift(id);
      await new Promise((r) => setTimeout(r, 2));
      continue;
    }
    say(`deleting ${id}`);
    await rows.remove(id);
    say(`del ${id}`);
  }
}
await Promise.all([0, 1, 2, 3].map(unitWriter).concat([0, 1].map(updater), remover()));
