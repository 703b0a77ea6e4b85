// `auth status --all`: every profile checked at once, each against its own deadline (the
// timeout), so one slow or unreachable service never holds up the others (cli.md §2).
import type { Ctx, Result } from '../../verbs/declare.js';
import { AuthError, ExitCode, InterruptedError, UsageError, WsctlError, type Reason } from '../../errors.js';
import { request } from '../../service.js';
import { NO_CREDENTIAL } from '../../http/index.js';
import { cleanErrorMessage } from '../../common/sanitize.js';
import { documentOf, rejected, showDocument, type StatusDocument } from './shared.js';

/** A profile's document, with why it could not be used and the reason word of that (cli.md §4). */
type Checked = StatusDocument & { error?: string; reason?: Reason };
type Outcome = 'valid' | 'auth' | 'network';

export async function statusAll(ctx: Ctx): Promise<Result> {
  if (ctx.sandbox)
    throw new UsageError('--all checks the profiles in config.json; --sandbox uses none of them. Run `wsctl --sandbox auth status`.');
  const names = Object.keys(ctx.config.read().profiles).sort((a, b) => a.localeCompare(b));
  // Only the profile in effect says where it came from; a broken pin is reported here as everywhere.
  const inEffect = names.length > 0 ? ctx.resolution() : undefined;
  const ms = ctx.timeoutMs;
  if (ctx.dryRun) return wouldCheck(ctx, names);
  const checks = names.map((name) => check(ctx, name, ms, inEffect?.profile === name ? inEffect : undefined));
  const results = await ctx.term.spin(`Checking ${names.length} profile${names.length === 1 ? '' : 's'}`, Promise.all(checks));
  const profiles = results.map((r) => r.doc);
  const outcomes = results.map((r) => r.outcome);
  const exitCode = outcomes.includes('auth') ? ExitCode.auth : outcomes.includes('network') ? ExitCode.network : undefined;
  const failed = outcomes.filter((o) => o !== 'valid').length;
  return {
    json: { profiles },
    human(out) {
      if (profiles.length === 0) {
        out.info('No profiles yet. Run `wsctl auth login --base-url <url>` to create one.');
        return;
      }
      profiles.forEach((doc, i) => {
        if (i > 0) out.line();
        showDocument(out, ctx, doc, doc.error === undefined ? [] : [['error', doc.error]]);
      });
    },
    exitCode,
    exitMessage: exitCode ? `${failed} of ${profiles.length} profiles could not be used (see "error" above).` : undefined,
    // The first profile's reason that gave the exit code: a program branches on it as on any error's.
    exitReason: results.find((r) => r.outcome === (exitCode === ExitCode.auth ? 'auth' : 'network'))?.reason,
  };
}

/** One profile: its target, then GET /api-keys/ against a deadline of its own. Never throws but for Ctrl-C. */
async function check(
  ctx: Ctx,
  name: string,
  ms: number,
  r: Parameters<typeof documentOf>[4],
): Promise<{ doc: Checked; outcome: Outcome; reason?: Reason }> {
  let t: Awaited<ReturnType<Ctx['target']>> = { profile: name, credential: NO_CREDENTIAL };
  let key: string | undefined;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), ms);
  try {
    t = await ctx.target({ profile: name });
    const problem = ctx.missing(t);
    key = await t.credential.read();
    if (problem) {
      const reason = t.keyBaseUrl && t.baseUrl ? 'wrong_origin' : 'not_logged_in';
      return { doc: { ...documentOf(ctx, t, key, false, r), error: problem, reason }, outcome: 'auth', reason };
    }
    const api = await ctx.api({ credential: t.credential, baseUrl: t.baseUrl, signal: AbortSignal.any([ctx.signal, deadline.signal]) });
    await api.request(request('listKeys'));
    return { doc: documentOf(ctx, t, key, true, r), outcome: 'valid' };
  } catch (error) {
    if (ctx.signal.aborted) throw new InterruptedError();
    if (error instanceof AuthError && error.status !== undefined)
      return {
        doc: { ...documentOf(ctx, t, key, false, r), error: rejected(t, error), reason: 'auth_rejected' },
        outcome: 'auth',
        reason: 'auth_rejected',
      };
    const why = deadline.signal.aborted
      ? `No answer from ${t.baseUrl} within ${ms / 1000} s (--timeout).`
      : error instanceof WsctlError
        ? cleanErrorMessage(error.message)
        : cleanErrorMessage(String((error as Error)?.message ?? error));
    const reason = deadline.signal.aborted ? 'timeout' : error instanceof WsctlError ? error.reason : 'local_error';
    const doc = { ...documentOf(ctx, t, key, null, r), error: why, reason };
    return { doc, outcome: error instanceof AuthError ? 'auth' : 'network', reason };
  } finally {
    clearTimeout(timer);
  }
}

/** --dry-run: the request each profile would be checked with; nothing is sent and no key is read. */
async function wouldCheck(ctx: Ctx, names: string[]): Promise<Result> {
  const planned = await Promise.all(
    names.map(async (name) => {
      const t = await ctx.target({ profile: name });
      if (!t.baseUrl) return { profile: name, request: null, error: ctx.missing(t) };
      const api = await ctx.api({ credential: t.credential, baseUrl: t.baseUrl });
      return { profile: name, request: api.plan(request('listKeys')) };
    }),
  );
  return {
    json: { profiles: planned, dry_run: true },
    human(out) {
      for (const p of planned) out.line(p.request ? `${p.profile}: ${p.request.method} ${p.request.url}` : `${p.profile}: ${p.error}`);
    },
  };
}
