/** The assets tests' view of the shared test server: a URL, its data dir, and an assets key. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestServer } from '../../helpers/server.js';
import { multipart, type Part, postRaw } from './fixtures.js';

export async function startAssetsServer(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const srv = await startTestServer(overrides);
  const { bearer: key, workspaceId } = await srv.createKeyDetails({ services: ['assets'] });
  const auth = { authorization: `Bearer ${key}` };
  return {
    srv,
    url: srv.url,
    dataDir: srv.dataDir,
    key,
    workspaceId,
    auth,
    api: srv.as({ bearer: key }),
    upload: (parts: Part[], headers: Record<string, string> = auth) => {
      const { body, contentType } = multipart(parts);
      return postRaw(`${srv.url}/api/v1/uploads`, { ...headers, 'content-type': contentType }, body);
    },
    /** Every file under the data dir's tmp and workspaces/<id>/files, to prove nothing partial stays behind. */
    storedFiles: async () => {
      const tmp = (await readdir(join(srv.dataDir, 'tmp')).catch(() => [])).map((f) => `tmp/${f}`);
      const workspaces = await readdir(join(srv.dataDir, 'workspaces')).catch(() => []);
      const files = await Promise.all(
        workspaces.map(async (w) =>
          (await readdir(join(srv.dataDir, 'workspaces', w, 'files')).catch(() => [])).map(
            (f) => `${w}/${f}`,
          ),
        ),
      );
      return [...tmp, ...files.flat()];
    },
    close: () => srv.close(),
  };
}

export type AssetsServer = Awaited<ReturnType<typeof startAssetsServer>>;
