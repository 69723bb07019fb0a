// API keys as credentials: a revoked key fails on its very next request, malformed keys get 401 {error}, and
// the secret is shown once and found nowhere else (responses, data directory, logs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintSecret } from '../../../../server/domains/keys/secret.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { storedText } from '../../../helpers/stored.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

async function expectError(res: Response, status: number, label: string) {
  const body = await res.json();
  expect(res.status, `${label}: ${JSON.stringify(body)}`).toBe(status);
  expect(body.error, label).toEqual(expect.any(String));
}

describe('API key errors', () => {
  it('refuses a revoked key with 401 on its very next request', async () => {
    const { bearer, id } = await srv.createKeyDetails({ services: ['assets'] });
    expect((await srv.as({ bearer })('/api/v1/me')).status).toBe(200);
    expect((await srv.as(srv.owner)(`/api/v1/api-keys/${id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(await srv.as({ bearer })('/api/v1/me'), 401, 'revoked');
    await expectError(await srv.as({ bearer })('/api/v1/assets'), 401, 'revoked on a service route');
  });

  it.each([
    ['an empty bearer', 'Bearer '],
    ['a bare prefix', 'Bearer fk_'],
    ['a short key', 'Bearer fk_abc'],
    ['a well-formed key that was never issued', `Bearer ${mintSecret().secret}`],
    ['a key with a wrong checksum', `Bearer ${mintSecret().secret.slice(0, -1)}0`],
    ['a key with a space inside', 'Bearer fk_abc def'],
    ['an unknown token kind', 'Bearer sk_live_123'],
    ['Basic auth', 'Basic dXNlcjpwYXNz'],
    ['a key with non-ASCII characters', 'Bearer fk_ÿÿÿÿ'],
  ])('answers 401 {error} to %s', async (_label, authorization) => {
    const res = await fetch(`${srv.url}/api/v1/me`, { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(Object.keys(await res.json())).toEqual(['error']);
  });

  it('shows the secret only in the create response: not in the list, not in /me, not on disk, not in the logs', async () => {
    const created = (await (
      await srv.as(srv.owner)('/api/v1/api-keys', {
        method: 'POST',
        body: JSON.stringify({ name: 'canary', services: ['assets'] }),
      })
    ).json()) as { id: string; secret: string; prefix: string };
    expect(created.secret).toMatch(/^fk_[0-9A-Za-z]{38}$/);
    expect(created.secret.startsWith(created.prefix)).toBe(true);
    const list = await (await srv.as(srv.owner)('/api/v1/api-keys')).text();
    const meByKey = await (await srv.as({ bearer: created.secret })('/api/v1/me')).text();
    const meBySession = await (await srv.as(srv.owner)('/api/v1/me')).text();
    for (const text of [list, meByKey, meBySession]) {
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain(created.secret.slice(created.prefix.length));
    }
    expect(list).toContain(created.prefix);
    const stored = await storedText(srv);
    expect(stored).toContain(created.prefix);
    expect(stored).not.toContain(created.secret.slice(created.prefix.length));
    expect(srv.logs.join('\n')).not.toContain(created.secret);
  });
});
