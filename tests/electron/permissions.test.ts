import { describe, expect, it } from 'vitest';
import { allowPermission } from '../../electron/permissions.js';

const origin = 'http://127.0.0.1:4780';

describe('window permissions', () => {
  it('grants the microphone (audio only) and clipboard writes to the dashboard', () => {
    expect(allowPermission('media', `${origin}/dictation`, origin, { mediaTypes: ['audio'] })).toBe(true);
    expect(allowPermission('clipboard-sanitized-write', `${origin}/keys`, origin)).toBe(true);
  });

  it('refuses the camera, other permissions and every other origin', () => {
    expect(allowPermission('media', `${origin}/dictation`, origin, { mediaTypes: ['audio', 'video'] })).toBe(
      false,
    );
    for (const p of ['geolocation', 'notifications', 'midi', 'openExternal', 'display-capture'])
      expect(allowPermission(p, `${origin}/`, origin), p).toBe(false);
    expect(allowPermission('media', 'http://localhost:4780/', origin, { mediaTypes: ['audio'] })).toBe(false);
    expect(allowPermission('media', 'https://evil.example/', origin, { mediaTypes: ['audio'] })).toBe(false);
  });
});
