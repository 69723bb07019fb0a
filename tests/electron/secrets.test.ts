import { describe, expect, it } from 'vitest';
import { createSecretBox, type SafeStorageLike } from '../../electron/secrets.js';

/** A stand-in with the same contract as Electron's safeStorage (which needs a running Electron). */
function storage(backend: string, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from([...Buffer.from(plain)].map((b) => b ^ 0x5a)),
    decryptString: (sealed) => Buffer.from([...sealed].map((b) => b ^ 0x5a)).toString(),
    getSelectedStorageBackend: () => backend,
  };
}

describe('secret box (safeStorage)', () => {
  it('seals and opens with a real keyring backend; the sealed text does not contain the secret', () => {
    const box = createSecretBox(storage('gnome_libsecret'), 'linux');
    expect(box.available).toBe(true);
    const sealed = box.seal('fk_sync_secret');
    expect(sealed).not.toContain('fk_sync_secret');
    expect(box.open(sealed)).toBe('fk_sync_secret');
  });

  it('on Linux the basic_text backend (a hard-coded password) counts as unavailable: sealing refuses', () => {
    const box = createSecretBox(storage('basic_text'), 'linux');
    expect(box.available).toBe(false);
    expect(box.reason).toMatch(/keyring/);
    expect(() => box.seal('fk_sync_secret')).toThrow(/Cannot keep secrets/);
  });

  it('no encryption at all is unavailable too; macOS and Windows have no backend choice to check', () => {
    expect(createSecretBox(storage('unknown', false), 'darwin').available).toBe(false);
    expect(createSecretBox(storage('basic_text'), 'win32').available).toBe(true);
  });
});
