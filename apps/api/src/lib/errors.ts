import { errorCatalogue, type ErrorBody, type ErrorCode, type FieldIssue } from '@pss/contract';

/**
 * An error the API answers on purpose. Services throw `new AppError('CASE_IS_ACTIVE')`;
 * the error handler turns it into `{ errorCode, message, details? }` with the
 * catalogue's status.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  /** `cause`: the error it stands for (logged with it, never answered). */
  constructor(code: ErrorCode, options: { message?: string; details?: unknown; cause?: unknown } = {}) {
    super(options.message ?? errorCatalogue[code].message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = options.details;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { errorCode: this.code, message: this.message }
      : { errorCode: this.code, message: this.message, details: this.details };
  }
}

/** A VALIDATION_ERROR listing each field that is wrong. */
export function validationError(issues: FieldIssue[]): AppError {
  return new AppError('VALIDATION_ERROR', { details: { fields: issues } });
}
