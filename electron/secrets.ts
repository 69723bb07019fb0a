/**
 * Secrets at rest (a sync key) through Electron's safeStorage. On Linux without a keyring safeStorage falls
 * back to the `basic_text` backend, which "encrypts" with a hard-coded password: we treat that as no
 * encryption at all and refuse to store the secret rather than pretend.
 */
export type SafeStorageLike = {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
};

export type SecretBox = {
  available: boolean;
  /** Why secrets cannot be kept, for the settings screen. */
  reason?: string;
  seal(plain: string): string;
  open(sealed: string): string;
};

export function createSecretBox(
  storage: SafeStorageLike,
  platform: NodeJS.Platform = process.platform,
): SecretBox {
  const backend = platform === 'linux' ? storage.getSelectedStorageBackend?.() : undefined;
  const reason = !storage.isEncryptionAvailable()
    ? 'The system offers no encryption for stored secrets'
    : backend === 'basic_text' || backend === 'unknown'
      ? 'No keyring (GNOME Keyring or KWallet) is running, so secrets cannot be encrypted'
      : undefined;
  const refuse = (): never => {
    throw new Error(`Cannot keep secrets: ${reason}`);
  };
  return {
    available: !reason,
    reason,
    seal: (plain) => (reason ? refuse() : storage.encryptString(plain).toString('base64')),
    open: (sealed) => (reason ? refuse() : storage.decryptString(Buffer.from(sealed, 'base64'))),
  };
}
