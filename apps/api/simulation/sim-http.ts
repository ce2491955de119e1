/**
 * The simulated people's HTTP: JSON calls to the app's API with a bearer token, and the
 * participant's refresh cookie kept as a browser keeps it. A call the app refuses throws
 * with the status and the catalogue code, so nothing fails silently.
 */

export class CallFailed extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 300)}`);
  }
}

export interface HttpSession {
  token: string | null;
  /** The refresh cookie (`name=value`), when the sign-in set one. */
  cookie: string | null;
}

export function httpClient(baseUrl: string) {
  let calls = 0;
  async function send(
    session: HttpSession | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (session?.token) headers.authorization = `Bearer ${session.token}`;
    if (session?.cookie) headers.cookie = session.cookie;
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    calls += 1;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    const setCookie = response.headers.getSetCookie().find((c) => c.includes('refresh='));
    if (session && setCookie) session.cookie = setCookie.split(';')[0]!;
    return { status: response.status, text, headers: response.headers };
  }

  /** A call that must succeed (2xx); answers its JSON, or its text when it is not JSON. */
  async function call<T>(session: HttpSession | null, method: string, path: string, body?: unknown): Promise<T> {
    const { status, text, headers } = await send(session, method, path, body);
    if (status < 200 || status >= 300) throw new CallFailed(method, path, status, text);
    return (headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
  }

  return { send, call, calls: () => calls };
}

export type HttpClient = ReturnType<typeof httpClient>;
