// A command that sends DELETE gets every safeguard without a line of its own (cli.md §5, §8, §11;
// STYLE 21). This test adds, at run time, a 15th endpoint to the table (DELETE a device's data), its
// sandbox handler, and `device wipe <device_id>` declared with no `mcp` block, no --yes and no
// confirmation call; then finds it confirmed on both doors, offered to MCP clients only with
// --allow-destructive and marked destructiveHint, and refused to a no-destructive agent; and in
// help, man page, completion scripts, README and skill, saying how it asks, and in the lists the
// build writes for the texts that name deleting commands and tools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, run, runBin, startSandbox, type TestSandbox } from './helpers.js';
import { declaredData } from '../src/cli/declared-data.js';
import { generatedFiles } from '../src/main.js';
import { connect, texts } from './mcp/harness.js';
import { device } from '../src/commands/device/index.js';
import { handlers, routes } from '../src/sandbox/routes.js';
import { endpointNames, endpoints, request, type Endpoint, type EndpointName } from '../src/service.js';
import { arg, call, defineVerb, parseId } from '../src/verbs/declare.js';
import { mcpOffer } from '../src/verbs/agent-policy.js';

const wiped: string[] = [];
const ENDPOINT = 'wipeDevice' as EndpointName;
(endpoints as unknown as Record<string, Endpoint>)[ENDPOINT] = { method: 'DELETE', path: '/devices/{device_id}/data', response: 'Success' };
(endpointNames as string[]).push(ENDPOINT);
(handlers as unknown as Record<string, unknown>)[ENDPOINT] = async ({ params }: { params: Record<string, string> }) => {
  wiped.push(params.device_id!);
  return { status: 200, body: { success: true } };
};
routes.push({
  method: 'DELETE',
  template: '/devices/{device_id}/data',
  auth: true,
  schema: 'Success',
  handle: (handlers as unknown as Record<string, (typeof routes)[number]['handle']>)[ENDPOINT]!,
});
device.verbs.push(
  defineVerb({
    name: 'wipe',
    summary: "Erase a device's data",
    args: { deviceId: arg('<device_id>', 'the device id', parseId) },
    examples: ['wsctl device wipe dev_phone'],
    endpoints: [ENDPOINT],
    sample: ['device', 'wipe', 'dev_phone', '--yes'],
    run: async (opts) =>
      call({
        request: request(ENDPOINT as 'removeDevice', { params: { device_id: opts.deviceId } }),
        spinner: 'Wiping',
        answer: ({ body }) => ({ json: body ?? { success: true }, human: (out) => out.done('Wiped.') }),
      }),
  }),
);

// The suite's workers run file after file with modules loaded once (vitest.config.ts: isolate off):
// the verb, endpoint and route leave with this file, or later files would see a 15th endpoint.
afterAll(() => {
  delete (endpoints as unknown as Record<string, Endpoint>)[ENDPOINT];
  (endpointNames as string[]).splice((endpointNames as string[]).indexOf(ENDPOINT), 1);
  delete (handlers as unknown as Record<string, unknown>)[ENDPOINT];
  routes.splice(
    routes.findIndex((r) => r.template === '/devices/{device_id}/data'),
    1,
  );
  device.verbs.splice(
    device.verbs.findIndex((v) => v.name === 'wipe'),
    1,
  );
});

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startSandbox();
  wiped.length = 0;
});
const sent = () => sb.requests.filter((q) => q.method === 'DELETE').map((q) => q.path);

describe('a DELETE verb declared tomorrow, on the MCP door', () => {
  it('is offered only with --allow-destructive, destructiveHint: true, with no yes argument', async () => {
    const plain = await connect({}, sb.env);
    expect((await plain.client.listTools()).tools.map((t) => t.name)).not.toContain('device_wipe');
    await plain.close();
    const c = await connect({ allowDestructive: true }, sb.env);
    const tool = (await c.client.listTools()).tools.find((t) => t.name === 'device_wipe')!;
    await c.close();
    expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['device_id', 'jq']);
  });

  it('asks a person, naming the action and the target from its words and its id argument; a no sends nothing', async () => {
    const messages: string[] = [];
    let answer = false;
    const c = await connect(
      { allowDestructive: true },
      sb.env,
      {},
      {
        answer: (r) => {
          messages.push((r.params as { message: string }).message);
          return answer ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
        },
      },
    );
    const no = await c.client.callTool({ name: 'device_wipe', arguments: { device_id: 'dev_phone' } });
    expect(texts(no)[0]).toBe('Error: Declined: nothing was sent. (exit code 2)');
    expect(messages[0]).toMatch(/^Action: wipe device\. It cannot be undone\.\ndevice_id: "dev_phone"\nProfile: 'default'\n/);
    expect(sent()).toEqual([]);
    answer = true;
    const yes = await c.client.callTool({ name: 'device_wipe', arguments: { device_id: 'dev_phone' } });
    expect(yes.isError, texts(yes).join()).toBeFalsy();
    expect(messages).toHaveLength(2);
    expect(wiped).toEqual(['dev_phone']);
    await c.close();
  });

  it('is not offered under a no-destructive policy: a call of it is an unknown tool', async () => {
    const c = await connect(
      { ...mcpOffer({ allowDestructive: true }, 'no-destructive'), policy: { profile: 'default', policy: 'no-destructive' } },
      sb.env,
    );
    expect((await c.client.listTools()).tools.map((t) => t.name)).not.toContain('device_wipe');
    await expect(c.client.callTool({ name: 'device_wipe', arguments: { device_id: 'dev_phone' } })).rejects.toThrow(/-32602/);
    await c.close();
    expect(sent()).toEqual([]);
  });
});

describe('a DELETE verb declared tomorrow, in what is generated from the tree', () => {
  const SAID = "Erase a device's data; asks to confirm on a terminal, else needs --yes";

  it("is in its noun's help and its own, saying how it asks there", async () => {
    const noun = await run(['device', '--help'], { env: sb.env });
    // The row wraps at the help's width: read as words.
    expect(noun.stdout.replace(/\s+/g, ' ')).toContain(` wipe ${SAID} `);
    const own = await run(['device', 'wipe', '--help'], { env: sb.env });
    expect(own.stdout).toContain(SAID);
  });

  it('is in the man pages, the completion scripts, the README and the skill (npm run docs)', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const files = await generatedFiles(readme);
    expect(files['man/wsctl-device-wipe.1']).toContain(
      "wsctl\\-device\\-wipe \\- Erase a device's data; asks to confirm on a terminal, else needs \\-\\-yes",
    );
    expect(files['man/wsctl-device.1']).toMatch(/wipe/);
    expect(files['completions/wsctl.bash']).toContain("['wsctl device']='rm wipe'");
    expect(files['completions/wsctl.fish']).toMatch(
      /-a 'wipe' -d 'Erase a device.{1,4}s data; asks to confirm on a terminal, else needs --yes'/,
    );
    expect(files['completions/_wsctl']).toMatch(/wipe/);
    expect(files['README.md']).toContain(`| \`wsctl device wipe <device_id>\` | ${SAID} | \`wsctl device wipe dev_phone\` |`);
    expect(files['README.md']).toContain(
      '| `device_wipe` | `wsctl device wipe` | destructive, only with `--allow-destructive` | every call |',
    );
    expect(files['skills/wsctl/SKILL.md']).toContain(
      `\`wsctl device wipe <device_id> [--yes]\`: ${SAID} *(may delete: needs the person's yes, then \`--yes\`)*`,
    );
  });

  it("is in the lists the build writes: the deleting commands (README, profile agents' help) and the tools of --allow-destructive", async () => {
    const data = await declaredData();
    expect(data.deleting).toContain('device wipe');
    expect(data.destructiveTools).toContain('device_wipe');
  });
});

describe('a DELETE verb declared tomorrow, on the command line', () => {
  it('takes --yes, which its help lists', async () => {
    const help = await run(['device', 'wipe', '--help'], { env: sb.env });
    expect(help.stdout).toMatch(/-y, --yes\s+do not ask for confirmation/);
    const r = await run(['device', 'wipe', 'dev_phone', '--yes'], { env: sb.env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(wiped).toEqual(['dev_phone']);
  });

  it('asks [y/N] on a terminal, naming the target and the profile: no sends nothing (exit 2), yes wipes', async () => {
    const no = await run(['device', 'wipe', 'dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: ['n'] });
    expect(no.prompts).toHaveLength(1);
    expect(no.prompts[0]).toMatch(/^Wipe device 'dev_phone' \(default profile 'default',\s+http:\/\/127\.0\.0\.1:\d+\)\?$/);
    expect([no.code, no.stderr]).toEqual([2, 'Cancelled: nothing was sent.\n']);
    expect(sent()).toEqual([]);
    const yes = await run(['device', 'wipe', 'dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: ['y'] });
    expect(yes.code, yes.stderr).toBe(0);
    expect(wiped).toEqual(['dev_phone']);
  });

  it('off a terminal needs --yes (exit 2), nothing sent', async () => {
    const r = await run(['device', 'wipe', 'dev_phone'], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(sent()).toEqual([]);
  });

  it('is refused to an agent under a no-destructive policy, before any question (exit 4)', async () => {
    expect((await run(['profile', 'agents', 'default', 'no-destructive'], { env: sb.env })).code).toBe(0);
    const r = await run(['device', 'wipe', 'dev_phone', '--yes'], {
      env: { ...sb.env, CLAUDECODE: '1' },
      tty: true,
      stdinTTY: true,
      answers: ['y'],
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^Error: The agent policy of profile 'default' is no-destructive: AI agents may not delete or replace/);
    expect(r.prompts).toEqual([]);
    expect(sent()).toEqual([]);
  });
});

// `api` declares no endpoint: what it sends is known from -X alone, and -X DELETE is a deletion
// like any other (cli.md §5: "every command that sends DELETE"), confirmed by the same rule.
describe('api -X DELETE, on the command line', () => {
  const devices = () => sb.state.devices.map((d) => d.id);

  it('off a terminal needs --yes: exit 2, confirmation_required, next is the line plus --yes; nothing sent (built bin)', async () => {
    const r = await runBin(['api', '-X', 'DELETE', '/devices/dev_phone', '--json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      error: {
        message: "No terminal to ask on: pass --yes to send DELETE '/devices/dev_phone'.",
        exit_code: 2,
        reason: 'confirmation_required',
        next: [
          {
            command: 'wsctl api -X DELETE /devices/dev_phone --json --yes',
            why: "Only the person's yes allows this: pass --yes once they have said yes to it.",
          },
        ],
      },
    });
    expect(sent()).toEqual([]);
    expect(devices()).toContain('dev_phone');
  });

  it('--no-input on a terminal needs --yes too; the target is the path sent, -f fields in its query', async () => {
    const r = await run(['api', '-X', 'DELETE', '/devices/dev_phone', '-f', 'reason=old', '--no-input'], {
      env: sb.env,
      tty: true,
      stdinTTY: true,
    });
    expect([r.code, r.prompts]).toEqual([2, []]);
    // On a terminal the line is wrapped to its width.
    expect(r.stderr.replace(/\s+/g, ' ')).toBe(
      "Error: Prompts are off (--no-input or WSCTL_NO_INPUT=1): pass --yes to send DELETE '/devices/dev_phone?reason=old'. ",
    );
    expect(sent()).toEqual([]);
  });

  it('asks [y/N] on a terminal naming the method and path, the profile and the base URL: no sends nothing, yes deletes', async () => {
    const no = await run(['api', '-X', 'DELETE', '/devices/dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: ['n'] });
    expect(no.prompts).toHaveLength(1);
    expect(no.prompts[0]).toMatch(/^Send DELETE '\/devices\/dev_phone' \(default profile 'default',\s+http:\/\/127\.0\.0\.1:\d+\)\?$/);
    expect([no.code, no.stderr]).toEqual([2, 'Cancelled: nothing was sent.\n']);
    expect(sent()).toEqual([]);
    const yes = await run(['api', '-X', 'delete', '/devices/dev_phone'], { env: sb.env, tty: true, stdinTTY: true, answers: ['y'] });
    expect(yes.code, yes.stderr).toBe(0);
    expect(sent()).toEqual(['/devices/dev_phone']);
    expect(devices()).not.toContain('dev_phone');
  });

  it('takes -y, --yes, which its help lists; other methods neither ask nor need it', async () => {
    const help = await run(['api', '--help'], { env: sb.env });
    expect(help.stdout).toMatch(/-y, --yes\s+do not ask for confirmation/);
    const r = await runBin(['api', '-X', 'DELETE', '/devices/dev_phone', '-y'], { env: sb.env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(sent()).toEqual(['/devices/dev_phone']);
    for (const argv of [
      ['api', '/settings/'],
      ['api', '-X', 'PATCH', '/connections/gmail/pdc_gmail/permission', '-f', 'permission=read'],
    ]) {
      const other = await run(argv, { env: sb.env, tty: true, stdinTTY: true });
      expect([other.code, other.prompts], argv.join(' ')).toEqual([0, []]);
    }
  });

  it('--dry-run neither asks nor needs --yes, and sends nothing', async () => {
    const r = await run(['api', '-X', 'DELETE', '/devices/dev_phone', '--dry-run'], { env: sb.env, tty: true, stdinTTY: true });
    expect([r.code, r.prompts]).toEqual([0, []]);
    expect(r.stdout).toMatch(/^DELETE http:\/\/127\.0\.0\.1:\d+\/devices\/dev_phone\n/);
    expect(sent()).toEqual([]);
  });
});
