// Asking the client's person to confirm a call (cli.md §8): elicitation/create in form mode, one
// boolean `confirm`. Only `accept` with `confirm: true` goes on; any other answer (an odd action,
// content that does not match, an error reply) is a no; a person has 10 minutes, counted on the
// context's clock, and an answer that comes later changes nothing.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { realClock, type Clock } from '../common/clock.js';

/** How long a person has to answer. */
export const ANSWER_MS = 10 * 60 * 1000;

export type Answer = 'yes' | 'no' | 'late';

/** Whether the client can ask a question in form mode (an empty `elicitation: {}` is form mode, which the SDK reads as `{form: {}}`). */
export function canAskForm(elicitation: unknown): boolean {
  return typeof elicitation === 'object' && elicitation !== null && (elicitation as { form?: unknown }).form !== undefined;
}

export async function askPerson(server: Server, message: string, signal: AbortSignal, clock: Clock = realClock): Promise<Answer> {
  const asking = new AbortController();
  const stop = () => asking.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const timer = new AbortController();
  try {
    const answer = server
      .elicitInput(
        {
          mode: 'form',
          message,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Yes, do it' } },
            required: ['confirm'],
          },
        },
        // The SDK's own bound (60 s by default) would end the question first: the clock's decides.
        { signal: asking.signal, timeout: ANSWER_MS + 60_000 },
      )
      .then(
        (result): Answer => (result.action === 'accept' && result.content?.confirm === true ? 'yes' : 'no'),
        (error: unknown): Answer => {
          // The call itself was cancelled or the server stops: not the person's answer.
          if (signal.aborted) throw error;
          return asking.signal.aborted ? 'late' : 'no';
        },
      );
    const late = clock.sleep(ANSWER_MS, timer.signal).then(
      (): Answer => 'late',
      () => new Promise<Answer>(() => {}),
    );
    const said = await Promise.race([answer, late]);
    if (said === 'late') asking.abort(new Error('No answer within 10 minutes.'));
    return said;
  } finally {
    timer.abort();
    signal.removeEventListener('abort', stop);
  }
}
