// Every fault class of the reliability table: exit code, message and requests seen.
import { describe, expect, it } from 'vitest';
import { noStackTrace, run, startSandbox } from '../helpers.js';
import { faultCases } from './cases.js';

describe('service faults', () => {
  it.each(faultCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const sb = await startSandbox();
    const other = await startSandbox();
    const closed = await startSandbox();
    await closed.close();
    const resolve = (text: string) => text.replace('OTHER', other.url).replace('CLOSED', closed.url);
    for (const fault of c.faults) {
      const f = { ...fault };
      if (f.redirect_to) f.redirect_to = resolve(f.redirect_to);
      if (f.retry_after === 'in 1s') f.retry_after = new Date(Date.now() + 1500).toUTCString();
      sb.faults.push(f);
    }
    const env = { ...sb.env, ...Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, resolve(v)])) };
    const r = await run(c.args, { env });
    expect(r.code, r.stderr).toBe(c.exit);
    expect(r.stderr.replace(/^! .*\n/m, '')).toMatch(c.message);
    expect(sb.requests).toHaveLength(c.requests);
    expect(noStackTrace(r.stderr)).toBe(true);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    if (c.faults[0]?.redirect_to) expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });
});
