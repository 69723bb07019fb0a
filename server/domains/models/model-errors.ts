/** Errors from installing or choosing models; `status`/`expose` follow the HTTP error convention. */
export class ModelError extends Error {
  readonly expose = true;
  constructor(
    readonly code:
      | 'download_failed'
      | 'checksum_mismatch'
      | 'already_installed'
      | 'not_installed'
      | 'bad_name',
    message: string,
    readonly status = code === 'not_installed'
      ? 404
      : code === 'already_installed'
        ? 409
        : code === 'bad_name'
          ? 400
          : 502,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
