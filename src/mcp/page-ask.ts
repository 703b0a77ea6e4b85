// Asking a person for a secret through a page (cli.md §8, MCP 2025-11-25's URL-mode elicitation):
// the page is served first, then the client is asked to open it. The client's `accept` says only
// that the person went there; what goes on is the page's one submission. A decline or a cancel
// from the client, or a decline on the page, is a no; nothing within 10 minutes, counted on the
// context's clock, is `late`; either way the page is gone when this returns.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { realClock, type Clock } from '../common/clock.js';
import { ANSWER_MS } from './elicit.js';
import { openKeyPage } from './key-page.js';
import type { PageAnswer, PageRequest } from './person-secret.js';

/** What the client shows the person before they open the page. */
export function pageMessage(request: PageRequest): string {
  return [
    `Action: ${request.action}${request.why ? `. ${request.why}` : ''}`,
    ...request.facts.map(([label, value]) => `${label}: ${value}`),
    `Open the page wsctl serves on 127.0.0.1 to give the ${request.what}; submitting it there is your consent, and the agent never sees it.`,
  ].join('\n');
}

const never = new Promise<never>(() => {});

export async function askOnPage(server: Server, request: PageRequest, signal: AbortSignal, clock: Clock = realClock): Promise<PageAnswer> {
  const page = await openKeyPage(request);
  const asking = new AbortController();
  const timer = new AbortController();
  let stop!: () => void;
  const stopped = new Promise<never>((_, reject) => (stop = () => reject(signal.reason)));
  const onAbort = () => {
    asking.abort(signal.reason);
    stop();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const elicitationId = randomUUID();
  let open = true;
  try {
    const fromClient = server
      .elicitInput(
        { mode: 'url', message: pageMessage(request), url: page.url, elicitationId },
        // The SDK's own bound (60 s by default) would end the question first: the clock's decides.
        { signal: asking.signal, timeout: ANSWER_MS + 60_000 },
      )
      .finally(() => (open = false))
      .then(
        // Accepted: the person went to the page, whose submission decides.
        (result): Promise<PageAnswer> | PageAnswer => (result.action === 'accept' ? never : 'no'),
        (): Promise<PageAnswer> | PageAnswer => (signal.aborted || asking.signal.aborted ? never : 'no'),
      );
    const late = clock.sleep(ANSWER_MS, timer.signal).then(
      (): PageAnswer => 'late',
      () => never,
    );
    const said = await Promise.race<PageAnswer>([page.submitted, fromClient, late, stopped]);
    if (typeof said === 'object')
      void server
        .createElicitationCompletionNotifier(elicitationId)()
        .catch(() => {});
    return said;
  } finally {
    timer.abort();
    // A question still open (the person went to the page before the client answered) is withdrawn;
    // the SDK would say so to the client even of one answered.
    if (open) asking.abort(new Error('The page was answered.'));
    signal.removeEventListener('abort', onAbort);
    page.close();
  }
}
