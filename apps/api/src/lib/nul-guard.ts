import type { FastifyInstance } from 'fastify';
import type { FieldIssue } from '@pss/contract';
import { validationError } from './errors.js';

const NUL = '\u0000';
const MAX_ISSUES = 20;

/**
 * PostgreSQL text and JSONB cannot hold the NUL character: a string carrying one used to
 * reach the database and answer 500. Every route refuses it here, before validation, with
 * a VALIDATION_ERROR naming each field (path parameters, query and JSON body alike), so no
 * service has to remember it.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issues: FieldIssue[] = [];
    collectNul(request.params, 'params', issues);
    collectNul(request.query, 'querystring', issues);
    collectNul(request.body, 'body', issues);
    if (issues.length) throw validationError(issues);
  });
}

/** Walks a parsed value without recursion (bodies may be nested thousands deep). */
export function collectNul(value: unknown, root: string, issues: FieldIssue[]): void {
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length && issues.length < MAX_ISSUES) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) issues.push({ field: path, message: 'Must not contain the NUL character (\\u0000).' });
    } else if (current && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current)) {
        const innerPath = `${path}.${key}`;
        if (key.includes(NUL)) {
          issues.push({ field: path, message: 'Field names must not contain the NUL character (\\u0000).' });
        } else {
          stack.push({ value: inner, path: innerPath });
        }
      }
    }
  }
}
