/** Errors from installing or choosing models: a download that failed is the source's fault (502). */
import { HttpError } from '../../http/errors.js';

type ModelErrorCode =
  | 'download_failed'
  | 'checksum_mismatch'
  | 'already_installed'
  | 'not_installed'
  | 'bad_name';

const statusByCode: Record<ModelErrorCode, number> = {
  download_failed: 502,
  checksum_mismatch: 502,
  already_installed: 409,
  not_installed: 404,
  bad_name: 400,
};

export class ModelError extends HttpError {
  declare readonly code: ModelErrorCode;
  constructor(code: ModelErrorCode, message: string) {
    super(statusByCode[code], message, {}, {}, code);
    this.name = 'ModelError';
  }
}
