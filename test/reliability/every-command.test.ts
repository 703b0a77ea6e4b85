// Every command that calls the service, under each class of fault and with hostile text in every
// string of its answer: a documented exit code, one or two lines of error, no stack trace, and
// nothing that can drive the terminal.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { responseSchemas } from '../../src/schemas.js';
import { compileTemplate, endpointNames, endpoints, matchTemplate, type Endpoint, type EndpointName } from '../../src/service.js';
import { serviceCalls } from '../endpoints.js';
import { noStackTrace, run, startSandbox, tempDir } from '../helpers.js';

/** Every command that calls the service, sending a valid request (test/endpoints.ts). */
const CALLS = serviceCalls({ yes: true });

/** Where a fault for an endpoint goes: its method, and its path up to the first parameter. */
const faultTarget = (endpoint: EndpointName) => ({ method: endpoints[endpoint].method, path: endpoints[endpoint].path.split('{')[0] });

const FAULTS = [
  { name: 'HTTP 500', fault: { status: 500, times: 3 }, exit: [1] },
  { name: 'a dropped connection', fault: { drop: true, times: 3 }, exit: [3] },
  { name: 'HTML instead of JSON', fault: { malformed: 'html' as const, times: 3 }, exit: [3, 0] },
  { name: 'HTTP 401', fault: { status: 401, times: 3 }, exit: [4] },
];

describe('every command under every class of fault', () => {
  it.each(FAULTS.map((f) => [f.name, f] as const))(
    '%s',
    async (_name, f) => {
      for (const { endpoint, args } of CALLS) {
        const sb = await startSandbox();
        sb.faults.push({ ...f.fault, ...faultTarget(endpoint) });
        const r = await run(args, { env: { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-test-0123456789' } });
        // `api` accepts any body: HTML is its answer, printed as text.
        expect(f.exit, `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
        expect(noStackTrace(r.stderr), args.join(' ')).toBe(true);
        expect(
          r.stderr
            .trim()
            .split('\n')
            .filter((l) => !l.startsWith('! ')).length,
          `${args.join(' ')}: ${r.stderr}`,
        ).toBeLessThanOrEqual(2);
        expect(r.stderr).not.toContain('Unexpected error');
      }
    },
    60_000,
  );
});

describe('hostile text in every string of every answer', () => {
  const EVIL = 'Hi\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x9b31m\u202e\u200bthere';
  const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069]/;
  const evilMessage = (kind: string) => ({
    kind,
    timestamp: EVIL,
    persona_name: EVIL,
    model_name: EVIL,
    parts: [
      { part_kind: 'text', content: EVIL },
      { part_kind: 'tool-call', tool_name: EVIL, args: EVIL },
      { part_kind: 'tool-return', tool_name: EVIL, content: EVIL },
    ],
  });
  // Each endpoint answers its response schema with EVIL in every string (below); these few answer
  // by hand, so that every branch of their views shows it (each part kind, a website made).
  const byHand: Partial<Record<EndpointName, unknown>> = {
    getConversation: {
      conversation: { id: EVIL, title: EVIL, type: EVIL, created_at: EVIL },
      state: EVIL,
      messages: [evilMessage(EVIL), evilMessage('response')],
    },
    createWebsite: { data: { name: EVIL, path: EVIL, local_port: 1, entrypoint_output: EVIL }, error: null },
  };
  const answers = Object.fromEntries(
    endpointNames.map((name) => {
      const { response, anyBody } = endpoints[name] as Endpoint;
      return [name, byHand[name] ?? (response ? filled(responseSchemas[response]()) : anyBody && { detail: EVIL })];
    }),
  ) as Record<EndpointName, unknown>;
  /** A value of the schema with EVIL in every string, every field given, one element in every list. */
  function filled(schema: z.ZodMiniType): unknown {
    const def = schema._zod.def as {
      type: string;
      shape?: Record<string, z.ZodMiniType>;
      element?: z.ZodMiniType;
      innerType?: z.ZodMiniType;
      valueType?: z.ZodMiniType;
      options?: z.ZodMiniType[];
      entries?: Record<string, string>;
      values?: unknown[];
    };
    switch (def.type) {
      case 'object':
        return Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, filled(field)]));
      case 'array':
        return [filled(def.element!)];
      case 'optional':
      case 'nullable':
        return filled(def.innerType!);
      case 'record':
        return { [EVIL]: filled(def.valueType!) };
      case 'union':
        return filled(def.options![0]!);
      case 'enum':
        return Object.values(def.entries ?? {})[0];
      case 'literal':
        return def.values?.[0];
      case 'number':
        return 1;
      case 'boolean':
        return true;
      default:
        return EVIL;
    }
  }
  const compiled = endpointNames.map((name) => ({ name, template: compileTemplate(endpoints[name].path) }));
  // The ids of the samples get their answer; an id ending in _nope is not found.
  const answerFor = (method: string, path: string) =>
    compiled.find((c) => {
      const params = endpoints[c.name].method === method ? matchTemplate(c.template, path) : undefined;
      return params && Object.values(params).every((id) => !id.endsWith('_nope'));
    })?.name;

  let url = '';
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const endpoint = answerFor(req.method ?? 'GET', (req.url ?? '').split('?')[0] as string);
      const body = endpoint && answers[endpoint];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { detail: EVIL }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it.each([true, false])('is removed from every human view (tty: %s), errors included', async (tty) => {
    for (const { args } of CALLS) {
      const r = await run(args, {
        env: {
          WSCTL_BASE_URL: url,
          WSCTL_API_KEY: 'wsk_hostile_key_123',
          WSCTL_CONFIG_DIR: tempDir(),
          WSCTL_BYOK_API_KEY: 'sk-test-0123456789',
          FORCE_COLOR: '0',
        },
        tty,
      });
      expect([0, 1], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      expect(HAS_CONTROL.test(r.stdout), `${args.join(' ')} stdout: ${JSON.stringify(r.stdout.slice(0, 300))}`).toBe(false);
      expect(HAS_CONTROL.test(r.stderr), `${args.join(' ')} stderr: ${JSON.stringify(r.stderr.slice(0, 300))}`).toBe(false);
    }
  });

  it('an error from the service that carries hostile text is one clean line', async () => {
    const r = await run(['convo', 'show', 'conv_nope'], {
      env: { WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_hostile_key_123', WSCTL_CONFIG_DIR: tempDir() },
    });
    expect(r.code).toBe(5);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(HAS_CONTROL.test(r.stderr)).toBe(false);
  });
});
