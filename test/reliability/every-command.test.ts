// Every command that calls the service, under each class of fault and with hostile text in every
// string of its answer: a documented exit code, one or two lines of error, no stack trace, and
// nothing that can drive the terminal.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noStackTrace, ROOT, run, startSandbox, tempDir } from '../helpers.js';

/** Every command that calls the service, with arguments that make a valid request, and the path it calls. */
const COMMANDS: [args: string[], path: string][] = [
  [['keys', 'list'], '/api-keys'],
  [['keys', 'create', 'ci'], '/api-keys'],
  [['settings'], '/settings'],
  [['caps'], '/capabilities'],
  [['convo', 'show', 'conv_demo', '--no-pager'], '/conversations'],
  [['convo', 'show', 'conv_demo', '--follow'], '/conversations'],
  [['notes', 'import', 'page_demo'], '/connections/notes'],
  [['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write'], '/connections/gmail'],
  [['conn', 'rm', 'gmail', 'pdc_gmail', '--yes'], '/connections/gmail'],
  [['byok', 'add', '--name', 'x', '--provider-url', 'https://api.openai.com/v1', '--format', 'openai', '--model', 'gpt-4.1'], '/byok'],
  [['device', 'rm', 'dev_laptop', '--yes'], '/devices'],
  [['persona', 'versions', 'persona_demo'], '/pub/personas'],
  [['persona', 'upload-avatar', join(ROOT, 'test/fixtures/avatar.png')], '/personas/upload-image'],
  [['pub', 'rm', 'pub_demo', '--yes'], '/pub/pub_demo'],
  [['site', 'create', 'launch'], '/user-services'],
  [['api', '/settings/'], '/settings'],
];

const FAULTS = [
  { name: 'HTTP 500', fault: { status: 500, times: 3 }, exit: [1] },
  { name: 'a dropped connection', fault: { drop: true, times: 3 }, exit: [3] },
  { name: 'HTML instead of JSON', fault: { malformed: 'html' as const, times: 3 }, exit: [3, 0] },
  { name: 'HTTP 401', fault: { status: 401, times: 3 }, exit: [4] },
];

describe('every command under every class of fault', () => {
  it.each(FAULTS.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    for (const [args, path] of COMMANDS) {
      const sb = await startSandbox();
      sb.faults.push({ ...f.fault, path });
      const r = await run(args, { env: { ...sb.env, WSCTL_BYOK_API_KEY: 'sk-test-0123456789' } });
      // `api` accepts any body: HTML is its answer, printed as text.
      expect(f.exit, `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      expect(noStackTrace(r.stderr), args.join(' ')).toBe(true);
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('! ')).length, `${args.join(' ')}: ${r.stderr}`).toBeLessThanOrEqual(2);
      expect(r.stderr).not.toContain('Unexpected error');
    }
  }, 60_000);
});

describe('hostile text in every string of every answer', () => {
  const EVIL = 'Hi\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x9b31m\u202e\u200bthere';
  const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069]/;
  const evilMessage = (kind: string) => ({ kind, timestamp: EVIL, persona_name: EVIL, model_name: EVIL, parts: [{ part_kind: 'text', content: EVIL }, { part_kind: 'tool-call', tool_name: EVIL, args: EVIL }, { part_kind: 'tool-return', tool_name: EVIL, content: EVIL }] });
  const answers: Record<string, unknown> = {
    '/api-keys/:GET': { keys: [{ id: EVIL, name: EVIL, key_prefix: EVIL, created_at: EVIL, last_used_at: EVIL }] },
    '/api-keys/:POST': { id: EVIL, name: EVIL, key: EVIL, key_prefix: EVIL, created_at: EVIL },
    '/settings/:GET': { timezone: EVIL, name: null, suggested_name: EVIL, bio: EVIL, icon: EVIL, language: EVIL },
    '/capabilities/:GET': { text_agent: { numbers: [{ phone: EVIL, name: EVIL, description: EVIL, conversation_id: EVIL }] }, email_agent: { addresses: [EVIL] }, connected_apps: [{ app_slug: EVIL, permission: EVIL, account_identifier: EVIL, account_name: EVIL }], prompts: [{ path: EVIL, title: EVIL, description: EVIL }] },
    '/conversations/conv_demo:GET': { conversation: { id: EVIL, title: EVIL, type: EVIL, created_at: EVIL }, state: EVIL, messages: [evilMessage(EVIL), evilMessage('response')] },
    '/connections/notes/import:POST': { filename: EVIL },
    '/connections/gmail/pdc_gmail/permission:PATCH': { success: true, note: EVIL },
    '/connections/gmail/pdc_gmail:DELETE': { success: true },
    '/byok/:POST': { id: EVIL, name: EVIL, base_url: EVIL, api_key: EVIL, format: EVIL, model_id: EVIL, created_at: EVIL, updated_at: EVIL },
    '/devices/dev_laptop:DELETE': { detail: EVIL },
    '/pub/personas/persona_demo/published:GET': { published: [{ id: EVIL, created_at: EVIL }] },
    '/personas/upload-image:POST': { url: EVIL },
    '/pub/pub_demo:DELETE': { success: true },
    '/user-services/create-website:POST': { data: { name: EVIL, path: EVIL, local_port: 1, entrypoint_output: EVIL }, error: null },
  };
  let url = '';
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const body = answers[`${(req.url ?? '').split('?')[0]}:${req.method}`];
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
    for (const [args] of COMMANDS) {
      const r = await run(args, { env: { WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_hostile_key_123', WSCTL_CONFIG_DIR: tempDir(), WSCTL_BYOK_API_KEY: 'sk-test-0123456789', FORCE_COLOR: '0' }, tty });
      expect([0, 1], `${args.join(' ')}: ${r.stderr}`).toContain(r.code);
      expect(HAS_CONTROL.test(r.stdout), `${args.join(' ')} stdout: ${JSON.stringify(r.stdout.slice(0, 300))}`).toBe(false);
      expect(HAS_CONTROL.test(r.stderr), `${args.join(' ')} stderr: ${JSON.stringify(r.stderr.slice(0, 300))}`).toBe(false);
    }
  });

  it('an error from the service that carries hostile text is one clean line', async () => {
    const r = await run(['convo', 'show', 'conv_nope'], { env: { WSCTL_BASE_URL: url, WSCTL_API_KEY: 'wsk_hostile_key_123', WSCTL_CONFIG_DIR: tempDir() } });
    expect(r.code).toBe(5);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(HAS_CONTROL.test(r.stderr)).toBe(false);
  });
});
