// linkedSignal (src/common/signals.ts): AbortSignal.any undone by hand, for an MCP call, so
// that the server's long-lived signals keep no listener of a call that ended.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkedSignal } from '../src/common/signals.js';

describe('linkedSignal', () => {
  it('aborts with the reason of the first signal that does, and leaves the others', () => {
    const [a, b] = [new AbortController(), new AbortController()];
    const { signal } = linkedSignal([a.signal, b.signal]);
    expect(signal.aborted).toBe(false);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
    b.abort(new Error('second'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('second');
    a.abort(new Error('first'));
    expect((signal.reason as Error).message).toBe('second');
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
  });

  it('is aborted at once when a signal already is, and listens to none', () => {
    const [a, b] = [new AbortController(), new AbortController()];
    b.abort('gone');
    const { signal } = linkedSignal([a.signal, b.signal]);
    expect([signal.aborted, signal.reason]).toEqual([true, 'gone']);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
  });

  it('unlink() leaves every signal: a long-lived one keeps no listener of work that ended', () => {
    const server = new AbortController();
    for (let i = 0; i < 1000; i++) {
      const call = new AbortController();
      const link = linkedSignal([server.signal, call.signal]);
      link.unlink();
    }
    expect(getEventListeners(server.signal, 'abort')).toHaveLength(0);
    const link = linkedSignal([server.signal]);
    link.unlink();
    server.abort();
    expect(link.signal.aborted).toBe(false);
  });
});
