import { defineVerb, wouldChange, type Ctx, type Result } from '../../verbs/declare.js';

export const stop = defineVerb({
  name: 'stop',
  summary: 'Stop the server that `sandbox serve --detach` started (exit 0 also when none runs)',
  examples: ['wsctl sandbox stop', 'eval "$(wsctl sandbox serve --detach)" && wsctl keys list; wsctl sandbox stop'],
  endpoints: [],
  sample: ['sandbox', 'stop'],
  run: (_opts, ctx) => run(ctx),
});

export async function run(ctx: Ctx): Promise<Result> {
  const { running, stop } = await import('./detached.js');
  if (ctx.dryRun) {
    const server = await running(ctx.config.dir);
    if (!server) return wouldChange({ stopped: false }, 'No sandbox server is running: nothing to stop.');
    return wouldChange(
      { stopped: true, pid: server.pid, url: server.url },
      `Would stop the sandbox server on ${server.url} (pid ${server.pid}).`,
    );
  }
  const result = await stop(ctx.config.dir);
  if (result && 'unproven' in result) {
    const { pid, url } = result.unproven;
    ctx.term.warn(
      `The recorded sandbox server (pid ${pid}${url ? `, ${url}` : ''}) could not be proven to be the one started here; no process was signalled, and the record was removed.`,
    );
  }
  const server = result && 'stopped' in result ? result.stopped : undefined;
  return {
    json: { stopped: !!server, ...(server ? { pid: server.pid, url: server.url } : {}) },
    human: (out) =>
      out.done(server ? `Stopped the sandbox server on ${server.url} (pid ${server.pid}).` : 'No sandbox server was running.'),
  };
}
