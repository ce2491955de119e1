import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorCatalogue, isErrorCode, type FieldIssue } from '@pss/contract';
import { isConnectionLost } from '../db/connection-loss.js';
import { isDatabaseError } from '../db/constraint-violations.js';
import { MissingFileError } from './storage.js';
import { AppError, validationError } from './errors.js';

/**
 * Every error leaves the API as `{ errorCode, message, details? }` with the catalogue's
 * status. Validation errors list each field; a 500 never carries a stack or SQL.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = missingParameter(error, request) ?? toAppError(error);
    if (appError.code === 'DATABASE_UNAVAILABLE') {
      // Not the failed query's text and values (Drizzle's message carries them): only why.
      request.log.warn(
        { errorCode: appError.code, reason: rootCause(error) },
        'request cut by a lost database connection',
      );
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.info({ errorCode: appError.code }, 'request refused');
    }
    const retryAfter = (appError.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds;
    // Every limit (sign-ins, test sends) says when to ask again.
    if (appError.status === 429 && retryAfter) reply.header('Retry-After', String(retryAfter));
    // A lost connection is replaced within moments (a failover, a restart): ask again soon.
    if (appError.code === 'DATABASE_UNAVAILABLE') reply.header('Retry-After', '1');
    // A download that failed before its first byte (a file missing from storage) had set its
    // file's headers: the error is JSON, whole, and no attachment.
    for (const name of ['content-type', 'content-length', 'content-disposition']) reply.removeHeader(name);
    // A 416 says the file's size in its Content-Range (`bytes */size`); no other error has one.
    if (appError.code !== 'RANGE_NOT_SATISFIABLE') reply.removeHeader('content-range');
    return reply.status(appError.status).send(appError.toBody());
  });
}

/**
 * Errors Fastify's router raises before any route runs (a malformed URL, a path
 * parameter past `maxParamLength`), answered as catalogue errors like everything else.
 * An overlong parameter names no record: 404.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('NOT_FOUND')
      : validationError([{ field: 'request', message: 'The URL is not valid.' }]);
  void reply.status(appError.status).send(appError.toBody());
}

/**
 * A required query or path parameter that is absent, or that fails its check while being
 * the text `null` or `undefined` (a client that stringified a missing value, as in
 * `/projects/undefined`), names itself and the operation (spec §5) instead of a general
 * validation error.
 */
function missingParameter(error: FastifyError, request: FastifyRequest): AppError | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  const part = error.validationContext;
  if (part !== 'querystring' && part !== 'params') return null;
  const values = (part === 'querystring' ? request.query : request.params) as Record<string, unknown> | undefined;
  const missing = error.validation
    .map((v) => v.instancePath.replace(/^\//, '').split('/')[0] ?? '')
    .filter((name) => {
      const value = name ? values?.[name] : undefined;
      return name && (value === undefined || value === null || value === 'null' || value === 'undefined');
    });
  if (!missing.length || missing.length !== error.validation.length) return null;
  const operation = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
  const names = [...new Set(missing)];
  return new AppError('REQUIRED_PARAMETER_MISSING', {
    message: `Required parameter ${names.join(', ')} was null or undefined when calling ${operation}.`,
    details: {
      fields: names.map((name): FieldIssue => ({
        field: `${part}.${name}`,
        errorCode: 'REQUIRED_PARAMETER_MISSING',
        message: `Required parameter ${name} was null or undefined.`,
      })),
    },
  });
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const part = error.validationContext ?? 'request';
    return validationError(
      error.validation.map((v): FieldIssue => {
        const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const field = path ? `${part}.${path}` : part;
        // Schemas may name a catalogue code as their message (e.g. 'PASSWORD_TOO_SHORT').
        if (isErrorCode(v.message)) {
          return { field, errorCode: v.message, message: errorCatalogue[v.message].message };
        }
        return { field, message: v.message ?? 'Invalid value' };
      }),
    );
  }
  if (isResponseSerializationError(error)) return new AppError('INTERNAL_ERROR');
  if ((error as unknown) instanceof MissingFileError) return new AppError('FILE_MISSING');
  if (isConnectionLost(error)) return new AppError('DATABASE_UNAVAILABLE');
  if (isDatabaseError(error)) return new AppError('DATABASE_ERROR');
  const status = error.statusCode ?? 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 429) return new AppError('TOO_MANY_REQUESTS');
  if (status === 404) return new AppError('NOT_FOUND');
  if (status === 401) return new AppError('NOT_AUTHORIZED');
  if (status >= 400 && status < 500) {
    // Malformed JSON, wrong content type and the like: say what Fastify found.
    return validationError([{ field: 'request', message: error.message }]);
  }
  return new AppError('INTERNAL_ERROR');
}

/** The innermost error's message (the driver's, under Drizzle's wrapper). */
function rootCause(error: unknown): string {
  let current = error as { cause?: unknown; message?: unknown };
  while (current.cause && typeof current.cause === 'object') current = current.cause as typeof current;
  return typeof current.message === 'string' ? current.message : 'unknown';
}
