import type { FastifyRequest } from 'fastify';
import type { Config } from './config.js';

/** What never reaches the logs. */
export const redactedLogPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_hash',
  '*.access_token',
  // The identity provider's tokens. (Its code and state come in a request body, which is
  // never logged, and in /keycloak-landing's query: see credentialParams.)
  '*.id_token',
  '*.refresh_token',
];

/**
 * Paths whose next segment is a credential: a dashboard link's sign-in token, a resource file's
 * signed token, a reminder's unsubscribe link.
 */
const credentialPaths = /(\/participant\/link\/|\/resource-files\/|\/unsubscribe\/)[^/?#]+/g;

/**
 * Query parameters that are credentials: a password link's `code`, the identity provider's
 * answer (`code`, `state`, `session_state`, `id_token_hint`), and the `token` of the pages an
 * emailed link opens (an unlock, an unsubscribe).
 */
const credentialParams = /([?&](?:code|state|session_state|id_token_hint|token)=)[^&#]*/g;

/** A URL as the log shows it: without the credentials in its path or its query. */
export function redactUrl(url: string): string {
  return url.replace(credentialPaths, '$1[redacted]').replace(credentialParams, '$1[redacted]');
}

function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The app's logger: pino at the configured level, with the credentials redacted, or false
 * for silence (tests); a config object passed in is laid over it.
 */
export function loggerOptions(logLevel: Config['logLevel'], logger: boolean | Record<string, unknown> | undefined) {
  return logger === false
    ? false
    : {
        level: logLevel,
        redact: redactedLogPaths,
        serializers: { req: serializeRequest },
        ...(logger === true || !logger ? {} : logger),
      };
}
