// Two requests making the same asset id at once (a retried sync push or chunked complete racing the request a
// killed client left running): one makes it, the other is told it exists, and the bytes stay where the record
// points. The loser once removed the winner's bytes, leaving a record that served 404.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'folio-fixed-id-'));
});
afterAll(async () => {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
});

it('creating one fixed asset id twice at once keeps the bytes of the one that exists', async () => {
  const { bearer, workspaceId } = await srv.createKeyDetails({ services: ['assets'] });
  const bytes = randomBytes(200_000);
  for (let round = 0; round < 5; round++) {
    const id = `ast_fixedidrace0000${round}`;
    const paths = [0, 1, 2].map((i) => join(dir, `${round}-${i}.bin`));
    for (const path of paths) await writeFile(path, bytes);
    const outcomes = await Promise.allSettled(
      paths.map((path) => srv.deps.uploads.createFromFile(workspaceId, { id, path, filename: 'same.bin' })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected') expect((o.reason as Error).name).toBe('StoreConflict');
    const asset = (await (await srv.as({ bearer })(`/api/v1/assets/${id}`)).json()) as {
      urls: { file: string };
    };
    const served = await fetch(asset.urls.file);
    expect(served.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await served.arrayBuffer()))
        .digest('hex'),
    ).toBe(createHash('sha256').update(bytes).digest('hex'));
  }
});
