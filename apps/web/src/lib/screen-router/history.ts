/**
 * The session history the router reads and writes: the browser's (`window.history`), or one
 * kept in memory for tests. Each entry carries its position (`idx`), so that when the person
 * goes back or forward the router knows how far, and can undo the move while a screen asks
 * whether to leave (see `useBlocker`).
 */
export type HistoryAction = 'POP' | 'PUSH' | 'REPLACE';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation carried (`navigate(to, { state })`); null when nothing. */
  state: unknown;
  /** Unique per entry. */
  key: string;
}

export interface Path {
  pathname: string;
  search: string;
  hash: string;
}

/** A move back or forward (`delta` entries; null when the entry's position is unknown). */
export type PopListener = (location: Location, delta: number | null) => void;

export interface History {
  readonly location: Location;
  push(path: Path, state?: unknown): void;
  replace(path: Path, state?: unknown): void;
  go(delta: number): void;
  /** Called on every move the person (or `go`) makes; pushes and replaces are the caller's. */
  listen(listener: PopListener): () => void;
}

export function createPath({ pathname, search, hash }: Path): string {
  return (
    pathname +
    (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '') +
    (hash && hash !== '#' ? hash : '')
  );
}

/** `'/a/b?c=1#d'` → its parts. */
export function parsePath(path: string): Partial<Path> {
  const parts: Partial<Path> = {};
  let rest = path;
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    parts.hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    parts.search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  if (rest) parts.pathname = rest;
  return parts;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

interface EntryState {
  usr: unknown;
  key: string;
  idx: number;
}

export function createBrowserHistory(): History {
  const entry = () => (window.history.state ?? null) as EntryState | null;
  let index = entry()?.idx ?? null;
  if (index === null) {
    // The first page of a visit has no position yet: it is the origin of this history.
    index = 0;
    window.history.replaceState({ usr: entry()?.usr ?? null, key: entry()?.key ?? 'default', idx: 0 }, '');
  }
  const read = (): Location => {
    const { pathname, search, hash } = window.location;
    const state = entry();
    return { pathname, search, hash, state: state?.usr ?? null, key: state?.key ?? 'default' };
  };
  let location = read();
  const listeners = new Set<PopListener>();
  window.addEventListener('popstate', () => {
    const next = entry()?.idx ?? null;
    const delta = next === null || index === null ? null : next - index;
    index = next;
    location = read();
    for (const listener of listeners) listener(location, delta);
  });
  const write = (method: 'pushState' | 'replaceState', path: Path, state: unknown) => {
    if (method === 'pushState') index = (index ?? 0) + 1;
    const usr = state ?? null;
    window.history[method]({ usr, key: newKey(), idx: index }, '', createPath(path));
    location = read();
  };
  return {
    get location() {
      return location;
    },
    push: (path, state) => write('pushState', path, state),
    replace: (path, state) => write('replaceState', path, state),
    go: (delta) => window.history.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history held in memory (tests): the entries given, at `initialIndex` (the last by default). */
export function createMemoryHistory(initialEntries: string[] = ['/'], initialIndex?: number): History {
  const toLocation = (path: string | Path, state: unknown = null): Location => {
    const parts = typeof path === 'string' ? parsePath(path) : path;
    return {
      pathname: parts.pathname ?? '/',
      search: parts.search ?? '',
      hash: parts.hash ?? '',
      state,
      key: newKey(),
    };
  };
  const entries = (initialEntries.length ? initialEntries : ['/']).map((path) => toLocation(path));
  let index = Math.min(Math.max(initialIndex ?? entries.length - 1, 0), entries.length - 1);
  const listeners = new Set<PopListener>();
  return {
    get location() {
      return entries[index]!;
    },
    push(path, state) {
      index += 1;
      entries.splice(index, entries.length, toLocation(path, state));
    },
    replace(path, state) {
      entries[index] = toLocation(path, state);
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      const moved = next - index;
      index = next;
      if (moved === 0) return;
      // As the browser does, the move is reported after the call has returned.
      queueMicrotask(() => {
        for (const listener of listeners) listener(entries[index]!, moved);
      });
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
