import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '../../lib/api-error';
import { isRetryable, retryDelay, unsavedAnswers, useAnswerSaver } from './answer-saver';

type Answer = { choice: string };

function setup(send: (questionId: string, answer: Answer) => Promise<unknown>, restored: Record<string, Answer> = {}) {
  return renderHook(() =>
    useAnswerSaver<Answer>({
      attemptId: 'attempt-1',
      restored,
      send,
      reasonOf: (error) => (error instanceof ApiError ? (error.serverMessage ?? error.errorCode) : 'network'),
    }),
  );
}

const offline = () => Promise.reject(new ApiError(0, 'UNKNOWN_ERROR', 'The server could not be reached.'));

describe('saving answers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.localStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it('retries only what can succeed, with a growing pause', () => {
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryable(new ApiError(0, 'UNKNOWN_ERROR', 'The server could not be reached.'))).toBe(true);
    expect(isRetryable(new ApiError(503, 'INTERNAL_SERVER_ERROR'))).toBe(true);
    expect(isRetryable(new ApiError(429, 'TOO_MANY_REQUESTS'))).toBe(true);
    expect(isRetryable(new ApiError(409, 'CHANGES_FORBIDDEN'))).toBe(false);
    expect(isRetryable(new ApiError(400, 'VALIDATION_ERROR'))).toBe(false);
    expect([1, 2, 3, 4, 5, 6, 9].map(retryDelay)).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('keeps an answer in the browser while the connection is down, and sends it when it returns', async () => {
    let connected = false;
    const sent: string[] = [];
    const send = vi.fn((_: string, answer: Answer) => {
      if (!connected) return offline();
      sent.push(answer.choice);
      return Promise.resolve();
    });
    const { result } = setup(send);
    act(() => result.current.queue('q1', { choice: 'BNP' }, 0));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.state).toEqual({ kind: 'offline' });
    expect(unsavedAnswers.read('attempt-1')).toEqual({ q1: { choice: 'BNP' } });
    // Retried after 2 s, then 4 s: still down.
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(send).toHaveBeenCalledTimes(3);
    connected = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(sent).toEqual(['BNP']);
    expect(result.current.state).toEqual({ kind: 'saved' });
    expect(unsavedAnswers.read('attempt-1')).toEqual({});
  });

  it('stops at a refusal and says why; a changed answer is sent again', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(409, 'CHANGES_FORBIDDEN', 'This case is already submitted.')));
    const { result } = setup(send);
    act(() => result.current.queue('q1', { choice: 'ECG' }, 0));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(send).toHaveBeenCalledTimes(1);
    expect(result.current.state).toEqual({ kind: 'refused', reason: 'This case is already submitted.' });
    // The answer is kept all the same.
    expect(unsavedAnswers.read('attempt-1')).toEqual({ q1: { choice: 'ECG' } });
    act(() => result.current.queue('q1', { choice: 'BNP' }, 0));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('sends the answers an earlier visit kept, and the newest of two given while one was on its way', async () => {
    const calls: string[] = [];
    let release: () => void = () => undefined;
    const send = vi.fn((_: string, answer: Answer) => {
      calls.push(answer.choice);
      return calls.length === 2 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    });
    const { result } = setup(send, { q9: { choice: 'kept from before' } });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(calls).toEqual(['kept from before']);
    act(() => result.current.queue('q1', { choice: 'first' }, 0));
    await act(() => vi.advanceTimersByTimeAsync(0));
    act(() => result.current.queue('q1', { choice: 'second' }, 0));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.state).toEqual({ kind: 'saving' });
    await act(async () => {
      release();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(calls).toEqual(['kept from before', 'first', 'second']);
    expect(result.current.state).toEqual({ kind: 'saved' });
  });
});
