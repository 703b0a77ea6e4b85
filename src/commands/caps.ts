import { call, defineNoun, defineVerb, type Call, type Ctx } from '../verbs/declare.js';
import type { IdRef } from '../ids/store.js';
import type { Capabilities } from '../schemas.js';
import { request } from '../service.js';
import type { Terminal } from '../terminal/index.js';

export const caps = defineNoun({
  name: 'caps',
  verbs: [],
  self: defineVerb({
    name: 'caps',
    summary: 'Show the workspace capabilities: text numbers, e-mail addresses, connected apps, prompts',
    examples: ['wsctl caps', 'wsctl caps | grep ^app', "wsctl caps --jq '.connected_apps[] | [.app_slug, .permission] | @tsv'"],
    endpoints: ['getCapabilities'],
    sample: ['caps'],
    ids: { takes: {}, remembers: (_opts, shown) => capsIds(shown as Capabilities) },
    run: (_opts, ctx) => run(ctx),
  }),
});

/** The ids caps shows (cli.md §10): each text number's conversation, each connected app and its account. */
export function capsIds(caps: Capabilities): IdRef[] {
  const numbers = (caps.text_agent?.numbers ?? []).filter((n) => n.conversation_id);
  const apps = caps.connected_apps ?? [];
  return [
    ...numbers.map(
      (n): IdRef => ({ kind: 'conversation', id: n.conversation_id as string, description: [n.name, n.phone].filter(Boolean).join(' ') }),
    ),
    ...apps.map((a): IdRef => ({ kind: 'app', id: a.app_slug, description: a.account_name ?? undefined })),
    ...apps
      .filter((a) => a.account_identifier)
      .map(
        (a): IdRef => ({
          kind: 'account',
          id: a.account_identifier as string,
          description: [a.app_slug, a.account_name].filter(Boolean).join(': '),
        }),
      ),
  ];
}

export async function run(_ctx: Ctx): Promise<Call> {
  return call({
    request: request('getCapabilities'),
    spinner: 'Loading capabilities',
    answer: ({ body }) => ({ json: body, human: (out) => render(body, out) }),
  });
}

async function render(caps: Capabilities, out: Terminal): Promise<void> {
  const numbers = caps.text_agent?.numbers ?? [];
  const addresses = caps.email_agent?.addresses ?? [];
  const apps = caps.connected_apps ?? [];
  const prompts = caps.prompts ?? [];
  if (!out.tty) {
    out.tsv(numbers.map((n) => ['number', n.phone, n.name, n.description, n.is_owner ?? false, n.conversation_id]));
    out.tsv(addresses.map((a) => ['email', a]));
    out.tsv(apps.map((a) => ['app', a.app_slug, a.permission, a.account_identifier, a.account_name]));
    out.tsv(prompts.map((p) => ['prompt', p.path, p.title, p.description]));
    return;
  }
  const section = async (title: string, empty: string, count: number, draw: () => Promise<void> | void) => {
    out.heading(title);
    if (count === 0) out.line(out.muted(`  ${empty}`));
    else await draw();
    out.line();
  };
  await section('Text numbers', 'No text numbers.', numbers.length, () =>
    out.table(
      [
        { header: 'PHONE', fixed: true },
        { header: 'NAME' },
        { header: 'DESCRIPTION' },
        { header: 'OWNER', fixed: true, tty: (v) => (v ? 'yes' : '') },
        { header: 'CONVERSATION', fixed: true },
      ],
      numbers.map((n) => [n.phone, n.name, n.description, n.is_owner ?? false, n.conversation_id]),
    ),
  );
  await section('E-mail addresses', 'No e-mail addresses.', addresses.length, () =>
    out.table(
      [{ header: 'ADDRESS' }],
      addresses.map((a) => [a]),
    ),
  );
  await section('Connected apps', 'No connected apps.', apps.length, () =>
    out.table(
      [{ header: 'APP', fixed: true }, { header: 'PERMISSION', fixed: true }, { header: 'ACCOUNT' }, { header: 'ACCOUNT NAME' }],
      apps.map((a) => [a.app_slug, a.permission, a.account_identifier, a.account_name]),
    ),
  );
  await section('Prompts', 'No prompts.', prompts.length, () =>
    out.table(
      [{ header: 'PATH', fixed: true }, { header: 'TITLE' }, { header: 'DESCRIPTION' }],
      prompts.map((p) => [p.path, p.title, p.description]),
    ),
  );
}
