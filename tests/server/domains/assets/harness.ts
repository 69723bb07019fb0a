/** The assets tests' view of the shared test server: a URL, its data dir, and an assets key. */
import { startTestServer } from '../../../helpers/server.js';
import { blobKeys, scratchFiles } from '../../../helpers/stored.js';
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
    /** Every file in the store's scratch dir and under workspaces/<id>/files, to prove nothing partial stays behind. */
    storedFiles: async () => {
      const tmp = (await scratchFiles(srv)).map((f) => `tmp/${f}`);
      const files = (await blobKeys(srv, 'workspaces'))
        .map((key) => key.split('/'))
        .filter((parts) => parts[2] === 'files')
        .map((parts) => `${parts[1]}/${parts.slice(3).join('/')}`);
      return [...tmp, ...files];
    },
    close: () => srv.close(),
  };
}

export type AssetsServer = Awaited<ReturnType<typeof startAssetsServer>>;
