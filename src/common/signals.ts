// A signal that follows others, for work that ends: an MCP call follows the server's signals.

export interface LinkedSignal {
  /** Aborts, with the first one's reason, when any of the signals does. */
  signal: AbortSignal;
  /** Leaves the signals: called when the work ends, so that a long-lived signal keeps no listener. */
  unlink(): void;
}

/**
 * AbortSignal.any, undone by hand. AbortSignal.any keeps every signal it makes among its sources'
 * dependants until the collector runs, and costs more the more there are: against an MCP server's
 * signal, 17 µs a call on Node 20, 6.5 on Node 22 and 1.3 on Node 24; a listener costs under 1.
 */
export function linkedSignal(signals: AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const unlink = () => {
    for (const s of signals) s.removeEventListener('abort', follow);
  };
  function follow(this: AbortSignal) {
    unlink();
    controller.abort(this.reason);
  }
  const aborted = signals.find((s) => s.aborted);
  if (aborted) controller.abort(aborted.reason);
  else for (const s of signals) s.addEventListener('abort', follow);
  return { signal: controller.signal, unlink };
}
