import type { TFunction } from './i18n';
import { errorCatalogue, isErrorCode, type ErrorCode } from '@pss/contract';

/** An error answer of the API, or a failure to reach it. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: ErrorCode | string;
  readonly serverMessage: string | undefined;
  readonly details: unknown;

  constructor(status: number, errorCode: string, serverMessage?: string, details?: unknown) {
    super(serverMessage ?? errorCode);
    this.name = 'ApiError';
    this.status = status;
    this.errorCode = errorCode;
    this.serverMessage = serverMessage;
    this.details = details;
  }
}

/** Raised before a call is sent when a required path or query parameter is missing (spec §5). */
export class RequiredParameterError extends ApiError {
  constructor(parameter: string, operation: string) {
    super(
      0,
      'REQUIRED_PARAMETER_MISSING',
      `Required parameter "${parameter}" was null or undefined when calling ${operation}.`,
    );
    this.name = 'RequiredParameterError';
  }
}

/**
 * The message a person sees for an error (spec §8): the translated catalogue message;
 * the server's own message for the families flagged showServerMessage when it sent one;
 * the unknown-error message for codes this app does not know.
 */
export function errorMessage(error: unknown, translate: TFunction): string {
  if (error instanceof ApiError) {
    if (isErrorCode(error.errorCode)) {
      if (errorCatalogue[error.errorCode].showServerMessage && error.serverMessage) return error.serverMessage;
      return translate(`errors.${error.errorCode}`);
    }
    return translate('errors.UNKNOWN_ERROR');
  }
  return translate('errors.UNKNOWN_ERROR');
}
