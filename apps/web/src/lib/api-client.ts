import { API_PREFIX, type CallInput, type ReplyOf, type RouteDefinition } from '@pss/contract';
import { ApiError, RequiredParameterError } from './api-error';

/**
 * The one way the web app talks to the API: JSON, credentials included, the bearer token
 * of the current session, and errors turned into ApiError.
 */
let accessToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

/** Called when a call (other than sign-in) answers 401: the session is gone. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A JSON body, or a FormData for uploads (multipart, field `file`). */
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Sign-in calls answer 401 for a wrong password; that is not a lost session. */
  isLogin?: boolean;
  signal?: AbortSignal;
  /** A bearer token of the call's own instead of the session's: a half-signed-in step's. */
  bearer?: string;
}

/**
 * Sends a call and answers the raw response, or throws ApiError for an error answer (and
 * reports a lost session on 401). The one place that builds URLs, headers and errors.
 */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const url = new URL(`${API_PREFIX}${path}`, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  const token = options.bearer ?? accessToken;
  if (token) headers.authorization = `Bearer ${token}`;

  const sent = fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
    credentials: 'include',
    signal: options.signal,
  });
  return checked(sent, options);
}

/** A sent call's response, or the ApiError it answers (and a lost session reported on 401). */
async function checked(
  sent: Promise<Response> | Response,
  options: Pick<RequestOptions, 'isLogin'>,
): Promise<Response> {
  let response: Response;
  try {
    response = await sent;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'UNKNOWN_ERROR', 'The server could not be reached.');
  }
  if (!response.ok) {
    const text = await response.text();
    const error = (text ? safeJson(text) : undefined) as
      { errorCode?: string; message?: string; details?: unknown } | undefined;
    if (response.status === 401 && !options.isLogin) onUnauthorized?.();
    throw new ApiError(response.status, error?.errorCode ?? 'UNKNOWN_ERROR', error?.message, error?.details);
  }
  return response;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sign-in calls answer 401 for a wrong password; that is not a lost session. */
  isLogin?: boolean;
  /** A bearer token of the call's own (a half-signed-in step's) instead of the session's. */
  bearer?: string;
}

/** A route's path with its parameters filled in (`/clients/:id` → `/clients/42`). */
export function pathOf(route: RouteDefinition, params: Record<string, string | undefined> | undefined): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === null || value === undefined || value === '') throw new RequiredParameterError(name, route.path);
    return encodeURIComponent(value);
  });
}

/** Arguments of a call: the input may be left out when the route needs none. */
type CallArguments<D extends RouteDefinition> =
  Record<string, never> extends CallInput<D>
    ? [input?: CallInput<D>, options?: CallOptions]
    : [input: CallInput<D>, options?: CallOptions];

function requestOf<D extends RouteDefinition>(route: D, input: CallInput<D> | undefined, options?: CallOptions) {
  let body: unknown = input?.body;
  if (route.upload) {
    const form = new FormData();
    form.append('file', input?.file as Blob);
    body = form;
  }
  return {
    path: pathOf(route, input?.params as Record<string, string | undefined> | undefined),
    options: {
      method: route.method,
      body,
      query: input?.query as Record<string, QueryValue> | undefined,
      signal: options?.signal,
      isLogin: options?.isLogin,
      bearer: options?.bearer,
    } satisfies RequestOptions,
  };
}

/**
 * Calls one route of the contract's route table: the path, its parameters, the query and
 * the body are checked against the contract when this compiles, and the answer is typed
 * by the route's reply schema. The one way features talk to the API.
 */
export async function call<D extends RouteDefinition>(route: D, ...args: CallArguments<D>): Promise<ReplyOf<D>> {
  const [input, options] = args;
  const request = requestOf(route, input, options);
  const response = await send(request.path, request.options);
  // The server's reply schema made this answer (response schemas are enforced there), so
  // it is read as the contract's type: the one place the web app takes an answer on trust.
  return (await readAnswer(response)) as ReplyOf<D>;
}

/** Calls a route whose answer is not JSON (a CSV, a file) and answers the raw response. */
export function callRaw<D extends RouteDefinition>(route: D, ...args: CallArguments<D>): Promise<Response> {
  const [input, options] = args;
  const request = requestOf(route, input, options);
  return send(request.path, request.options);
}

/**
 * The answer of a call to `route` sent outside this module: the ones index.html's own script
 * sends as the page starts (src/boot/first-calls.ts), read with the same errors as any other
 * call and, as `call`'s, typed by the route's reply schema.
 */
export async function answerOf<D extends RouteDefinition>(
  _route: D,
  sent: Promise<Response> | Response,
  options: Pick<CallOptions, 'isLogin'> = {},
): Promise<ReplyOf<D>> {
  return (await readAnswer(await checked(sent, options))) as ReplyOf<D>;
}

async function readAnswer(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text ? safeJson(text) : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Uploads a file to an upload route, reporting its progress (a fetch cannot): the same path,
 * token and errors as `call`, through XMLHttpRequest.
 */
export function uploadWithProgress<D extends RouteDefinition & { upload: true }>(
  route: D,
  input: CallInput<D>,
  onProgress: (fraction: number) => void,
): Promise<ReplyOf<D>> {
  const request = requestOf(route, input);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(route.method, new URL(`${API_PREFIX}${request.path}`, window.location.origin));
    xhr.setRequestHeader('accept', 'application/json');
    if (accessToken) xhr.setRequestHeader('authorization', `Bearer ${accessToken}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'UNKNOWN_ERROR', 'The server could not be reached.'));
    xhr.onload = () => {
      const answer = xhr.responseText ? safeJson(xhr.responseText) : undefined;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(answer as ReplyOf<D>);
      const error = answer as { errorCode?: string; message?: string; details?: unknown } | undefined;
      if (xhr.status === 401) onUnauthorized?.();
      reject(new ApiError(xhr.status, error?.errorCode ?? 'UNKNOWN_ERROR', error?.message, error?.details));
    };
    xhr.send(request.options.body as FormData);
  });
}
