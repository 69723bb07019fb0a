// An agent that pauses between calls finds its connection still open: the server keeps an idle keep-alive socket for
// 65 s and says so, so clients never write onto a socket the server is closing (the race that resets a request).
import { Agent, get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

function call(agent: Agent): Promise<{ keepAlive?: string; localPort?: number }> {
  return new Promise((resolve, reject) => {
    get(`${srv.url}/api/v1/me`, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ keepAlive: String(res.headers['keep-alive']), localPort: res.socket?.localPort }),
      );
    }).on('error', reject);
  });
}

describe('keep-alive', () => {
  it('advertises a 65 s idle timeout and still holds the socket after the 5 s Node default', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await call(agent);
    expect(first.keepAlive).toBe('timeout=65');
    await sleep(6_000);
    const second = await call(agent);
    expect(second.localPort).toBe(first.localPort);
    agent.destroy();
  }, 20_000);
});
