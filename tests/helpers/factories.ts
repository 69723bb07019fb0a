// Records made through the real API (STYLE: createWorkspace, createKey), for tests that need tenants.
import type { ServiceName } from '../../server/http/viewer.js';
import type { TestServer } from './server.js';

export type Session = { cookie: string };

export async function createWorkspace(srv: TestServer, session: Session, name = 'Second') {
  const res = await srv.as(session)('/api/v1/workspaces', { method: 'POST', body: JSON.stringify({ name }) });
  if (res.status !== 201) throw new Error(`createWorkspace: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; name: string; ownerId: string };
}

export const createKey = (
  srv: TestServer,
  options: { services: ServiceName[]; session?: Session; workspace?: string },
) => srv.createKeyDetails(options);

/** Uploads a small text file with a credential; returns the asset's id. */
export async function uploadAsset(srv: TestServer, bearer: string, name = 'note.txt'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([`hello from ${name}`], { type: 'text/plain' }), name);
  const res = await fetch(`${srv.url}/api/v1/uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`uploadAsset: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** A signed-in, approved user with their personal workspace, a second workspace and a key with every service. */
export async function createTenant(srv: TestServer, email: string) {
  const session = await srv.signInApproved(email);
  const me = (await (await srv.as(session)('/api/v1/me')).json()) as { workspace: { id: string } };
  const extra = await createWorkspace(srv, session, `${email} extra`);
  const key = await createKey(srv, {
    session,
    services: ['assets', 'transcription', 'realtime', 'diagrams', 'artifacts', 'charts'],
  });
  return { email, session, workspaceId: me.workspace.id, extraWorkspaceId: extra.id, key };
}
