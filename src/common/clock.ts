// The time that waits read and wait on (the follow loop, the spinner's heartbeat, an MCP question's
// 10 minutes): the real one, or in tests one that never waits.
import { sleep } from './builtins.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after ms, or rejects once signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, signal),
};
