import { describe, expect, it } from 'vitest';
import { isExternalWebUrl, isLocalUrl } from '../../electron/navigation.js';

describe('isLocalUrl', () => {
  const origin = 'http://127.0.0.1:4780';
  it.each([
    ['http://127.0.0.1:4780/assets', true],
    ['http://127.0.0.1:4780', true],
    ['http://127.0.0.1:4781/', false],
    ['http://localhost:4780/', false],
    ['https://127.0.0.1:4780/', false],
    ['http://127.0.0.1:4780.evil.com/', false],
    ['http://127.0.0.1:4780@evil.com/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isLocalUrl(url, origin)).toBe(expected);
  });
});

describe('isExternalWebUrl', () => {
  it('opens only http(s) links outside the app', () => {
    expect(isExternalWebUrl('https://example.com/')).toBe(true);
    expect(isExternalWebUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalWebUrl('smb://host/share')).toBe(false);
  });
});
