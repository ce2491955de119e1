import { useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../lib/api-error';

/**
 * Saving a clinician's answers so that none is ever lost and failure is told plainly:
 *  - every answer not yet on the server is kept in this browser (localStorage, per attempt)
 *    until the server has it, so a reload or a lost connection keeps it;
 *  - only what can succeed is sent again: a network failure, a 5xx, a 429 or a 408, with a
 *    growing pause (2 s, 4 s … 30 s), and at once when the browser comes back online;
 *  - a refusal (any other 4xx) is not retried: the page says why, and a changed answer or
 *    "Retry" sends it again;
 *  - one state for the page, never a toast per failure.
 */
export type SaveState =
  { kind: 'saved' } | { kind: 'saving' } | { kind: 'offline' } | { kind: 'refused'; reason: string };

export function isRetryable(error: unknown): boolean {
  // Status 0: fetch itself failed (no connection, or the server could not be reached).
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500 || [408, 429].includes(error.status);
  return true;
}

/** The pause before the n-th retry (n ≥ 1). */
export function retryDelay(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(Math.max(failures, 1), 5));
}

/** The answers of an attempt not yet on the server, kept in this browser. */
export const unsavedAnswers = {
  key: (attemptId: string) => `pss.unsaved-answers.${attemptId}`,
  read<A>(attemptId: string): Record<string, A> {
    try {
      const stored = window.localStorage.getItem(unsavedAnswers.key(attemptId));
      const parsed: unknown = stored ? JSON.parse(stored) : {};
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, A>) : {};
    } catch {
      return {};
    }
  },
  write<A>(attemptId: string, answers: ReadonlyMap<string, A>): void {
    try {
      if (answers.size === 0) window.localStorage.removeItem(unsavedAnswers.key(attemptId));
      else window.localStorage.setItem(unsavedAnswers.key(attemptId), JSON.stringify(Object.fromEntries(answers)));
    } catch {
      // Storage full or disabled: the answer is still held in memory and sent.
    }
  },
  clear(attemptId: string): void {
    try {
      window.localStorage.removeItem(unsavedAnswers.key(attemptId));
    } catch {
      // nothing kept
    }
  },
};

export interface AnswerSaver<A> {
  state: SaveState;
  /** A changed answer: kept at once, sent after `delayMs` (typing waits for a pause). */
  queue(questionId: string, answer: A, delayMs: number): void;
  /** Sends everything waiting now; answers whether all of it is on the server. */
  flush(): Promise<boolean>;
  /** Forgets refusals and pauses and sends everything waiting now. */
  retryNow(): Promise<boolean>;
}

export function useAnswerSaver<A>(options: {
  attemptId: string;
  /** Answers kept from an earlier visit that never reached the server: sent at once. */
  restored: Record<string, A>;
  send(questionId: string, answer: A): Promise<unknown>;
  /** The words for a refusal (the server's message, or the catalogue's). */
  reasonOf(error: unknown): string;
}): AnswerSaver<A> {
  const [, render] = useReducer((n: number) => n + 1, 0);
  const live = useRef(options);
  live.current = options;
  const self = useRef<{
    pending: Map<string, A>;
    inFlight: Set<string>;
    failures: Map<string, number>;
    refused: Map<string, string>;
    timers: Map<string, ReturnType<typeof setTimeout>>;
  } | null>(null);
  self.current ??= {
    pending: new Map(Object.entries(options.restored)),
    inFlight: new Set(),
    failures: new Map(),
    refused: new Map(),
    timers: new Map(),
  };
  const s = self.current;
  const keep = () => unsavedAnswers.write(live.current.attemptId, s.pending);

  function schedule(questionId: string, delayMs: number) {
    clearTimeout(s.timers.get(questionId));
    s.timers.set(
      questionId,
      setTimeout(() => {
        s.timers.delete(questionId);
        void persist(questionId);
      }, delayMs),
    );
  }

  async function persist(questionId: string): Promise<void> {
    const answer = s.pending.get(questionId);
    if (answer === undefined || s.inFlight.has(questionId) || s.refused.has(questionId)) return;
    s.inFlight.add(questionId);
    render();
    try {
      await live.current.send(questionId, answer);
      s.failures.delete(questionId);
      // A newer answer given meanwhile stays waiting, and goes next.
      if (s.pending.get(questionId) === answer) {
        s.pending.delete(questionId);
        keep();
      }
    } catch (error) {
      if (isRetryable(error)) {
        const failures = (s.failures.get(questionId) ?? 0) + 1;
        s.failures.set(questionId, failures);
        schedule(questionId, retryDelay(failures));
      } else {
        s.refused.set(questionId, live.current.reasonOf(error));
      }
    } finally {
      s.inFlight.delete(questionId);
      if (s.pending.has(questionId) && !s.timers.has(questionId) && !s.refused.has(questionId)) {
        schedule(questionId, 0);
      }
      render();
    }
  }

  async function flush(): Promise<boolean> {
    for (const [id, timer] of s.timers) {
      clearTimeout(timer);
      s.timers.delete(id);
    }
    await Promise.all([...s.pending.keys()].map((id) => persist(id)));
    return s.pending.size === 0;
  }

  useEffect(() => {
    for (const id of s.pending.keys()) schedule(id, 0);
    const online = () => {
      s.failures.clear();
      void flush();
    };
    const leaving = () => void flush();
    window.addEventListener('online', online);
    window.addEventListener('pagehide', leaving);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('pagehide', leaving);
      // Leaving the page sends what is still waiting (it stays kept in the browser if that fails).
      void flush();
    };
    // Once per attempt: the page is keyed by it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [firstRefusal] = s.refused.values();
  const state: SaveState =
    firstRefusal !== undefined
      ? { kind: 'refused', reason: firstRefusal }
      : s.failures.size > 0
        ? { kind: 'offline' }
        : s.inFlight.size > 0 || s.pending.size > 0
          ? { kind: 'saving' }
          : { kind: 'saved' };

  return {
    state,
    queue(questionId, answer, delayMs) {
      s.pending.set(questionId, answer);
      s.refused.delete(questionId);
      keep();
      if (!s.inFlight.has(questionId)) schedule(questionId, delayMs);
      render();
    },
    flush,
    async retryNow() {
      s.refused.clear();
      s.failures.clear();
      return flush();
    },
  };
}
