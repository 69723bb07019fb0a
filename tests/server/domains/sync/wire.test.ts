// The wire that lends the link to one pack's parts at a time (server/domains/sync/desktop/wire.ts).
import { describe, expect, it } from 'vitest';
import { createWire } from '../../../../server/domains/sync/desktop/wire.js';

const settled = async (p: Promise<void>) => {
  const state = await Promise.race([
    p.then(
      () => 'ready',
      (error: Error) => `failed: ${error.message}`,
    ),
    new Promise<string>((r) => setTimeout(() => r('waiting'), 10)),
  ]);
  return state;
};

describe('the wire', () => {
  it('lends itself in the order places were taken, each once the one before is released', async () => {
    const take = createWire();
    const [first, second, third] = [take(), take(), take()];
    expect(await settled(first.ready)).toBe('ready');
    expect(await settled(second.ready)).toBe('waiting');
    second.release(); // out of turn: the third still waits for the first
    expect(await settled(third.ready)).toBe('waiting');
    first.release();
    expect(await settled(second.ready)).toBe('ready');
    expect(await settled(third.ready)).toBe('ready');
  });

  it('stops every later place once a holder fails, even after it released the wire', async () => {
    const take = createWire();
    const [first, second, third] = [take(), take(), take()];
    first.release();
    first.release(new Error('complete refused')); // its parts went; its complete failed
    expect(await settled(second.ready)).toBe('failed: complete refused');
    second.release(new Error('complete refused'));
    expect(await settled(third.ready)).toBe('failed: complete refused');
  });
});
