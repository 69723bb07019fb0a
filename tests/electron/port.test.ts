import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { choosePort } from '../../electron/port.js';

describe('choosePort', () => {
  it('keeps the preferred port when it is free and falls back to any port when taken', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const taken = (holder.address() as { port: number }).port;
    expect(await choosePort(taken)).toBe(0);
    await new Promise((r) => holder.close(r));
    expect(await choosePort(taken)).toBe(taken);
  });
});
