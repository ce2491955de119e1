import type { Clock } from './clock.js';

/**
 * Results of expensive reads, shared: callers asking for the same key while it is being
 * computed wait for that one computation (a dashboard opening sends its calls at once),
 * and a result is answered again for `ttlMs` after it was computed. A failed computation
 * is not kept. With `ttlMs` 0 only concurrent callers share. Per process: another process
 * computes its own.
 */
export function sharedResults(options: { ttlMs: number; clock: Clock; maxEntries?: number }) {
  const maxEntries = options.maxEntries ?? 500;
  const entries = new Map<string, { done: number | null; value: Promise<unknown> }>();

  function sweep(now: number) {
    for (const [key, entry] of entries) {
      if (entry.done !== null && now - entry.done >= options.ttlMs) entries.delete(key);
    }
    // Oldest first (a Map keeps insertion order).
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
  }

  return {
    get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const now = options.clock.now().getTime();
      const found = entries.get(key);
      if (found && (found.done === null || now - found.done < options.ttlMs)) return found.value as Promise<T>;
      sweep(now);
      const entry: { done: number | null; value: Promise<unknown> } = { done: null, value: Promise.resolve() };
      entry.value = compute().then(
        (value) => {
          entry.done = options.clock.now().getTime();
          if (options.ttlMs <= 0 && entries.get(key) === entry) entries.delete(key);
          return value;
        },
        (error: unknown) => {
          if (entries.get(key) === entry) entries.delete(key);
          throw error;
        },
      );
      entries.set(key, entry);
      return entry.value as Promise<T>;
    },
  };
}
