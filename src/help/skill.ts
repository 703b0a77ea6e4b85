// wsctl's agent skill (cli.md §12): SKILL.md in the Agent Skills format, for an agent that has
// never seen wsctl. The prose is written once, here; every list in it (commands with their usage,
// what each changes, where ids come from, exit codes and reasons, global options, policies) is
// handed in from the declarations or read from the tables the help topics print, so the skill
// cannot name a command, flag or word the program does not have (test/skill.test.ts parses them).
// `npm run docs` commits it as skills/wsctl/SKILL.md; `wsctl skill` prints the same text.
import { AGENT_POLICIES, AGENT_VARIABLES } from '../common/agent.js';
import { GLOBAL_OPTIONS } from '../common/globals.js';
import { REASONS, type Reason } from '../errors.js';
import { REASON_MEANINGS, TOPICS } from './topics.js';

/** One command as the skill lists it. */
export interface SkillCommand {
  /** "wsctl device rm <device_id> [--yes]" */
  usage: string;
  summary: string;
  /** cli.md §12's classification (src/verbs/changes.ts). */
  changes: 'none' | 'write' | 'destructive';
}

/** What the skill says that comes from the declarations, not from this file. */
export interface SkillFacts {
  commands: SkillCommand[];
  /** Each kind of id wsctl remembers, and where it comes from (src/ids/kinds.ts). */
  idSources: [kind: string, where: string][];
  /** The commands that send DELETE ("device rm"). */
  deleting: string[];
  /** The commands that send any method to any path, DELETE included ("api"). */
  anyMethod: string[];
  /** The commands a person confirms in `wsctl mcp` though they delete nothing (--force, a wider permission, data sent away). */
  confirmedElsewhere: string[];
}

/** The file's name in a skill's folder, and the skill's name (its folder's). */
export const SKILL_FILE = 'SKILL.md';
export const SKILL_NAME = 'wsctl';

// How wsctl knows a SKILL.md is its own (cli.md §12: one it did not write is never replaced): the
// front matter's metadata names wsctl and carries the SHA-256 of the file (with that value empty).
// A file a person wrote has no such line; a file a person edited no longer matches its digest.
// Both stay untouched unless --force. Metadata is the Agent Skills format's own place for this.
const GENERATOR_LINE = `  generated-by: ${SKILL_NAME}`;
const DIGEST = /^ {2}sha256: "([0-9a-f]{0,64})"$/m;

function sha256(text: string): string {
  // Loaded on use: node:crypto at start-up would cost every command (see config/atomic.ts).
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
}

/** Whether wsctl wrote this text, unchanged since: its generator line and a digest that matches. */
export function writtenByWsctl(text: string): boolean {
  const head = frontMatter(text);
  if (head === undefined || !head.split('\n').includes(GENERATOR_LINE)) return false;
  const digest = DIGEST.exec(head)?.[1];
  return digest?.length === 64 && sha256(text.replace(DIGEST, '  sha256: ""')) === digest;
}

/** The YAML between the opening and closing `---`, or undefined. */
function frontMatter(text: string): string | undefined {
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---\n', 3);
  return end < 0 ? undefined : text.slice(4, end + 1);
}

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The description agents match on: when to use the skill (at most 1,024 characters, plain YAML). */
const DESCRIPTION =
  'Administer a personal AI-assistant workspace with the wsctl command line (API keys, conversations and their ' +
  'transcripts, capabilities, connected apps, devices, personas, publications, websites, bring-your-own-model ' +
  'providers), or try it against its local sandbox. Use when the person asks to do any of that, mentions wsctl, ' +
  'or wants to script or inspect their workspace.';

/** Short meanings of the exit codes (the help topic's are for people reading a table). */
const EXIT_MEANINGS: Record<number, string> = {
  0: 'success',
  1: 'the service refused or failed, or said so in its answer',
  2: 'usage: a wrong argument or flag, input refused before or by the service, a confirmation missing or declined',
  3: 'network: unreachable, timed out, or an answer that is not what was expected',
  4: 'authentication: nobody logged in, a key refused, or an agent policy refusing the command',
  5: 'not found (HTTP 404)',
  130: 'interrupted',
};

/** The exit codes with their reason words and what each word means. */
function exitTable(): string {
  const reasons = Object.keys(REASONS) as Reason[];
  const rows = Object.entries(EXIT_MEANINGS).map(([exit, meaning]) => {
    const words = reasons.filter((r) => REASONS[r] === Number(exit)).map((r) => `${code(r)} (${REASON_MEANINGS[r]})`);
    return `| ${exit} | ${cell(meaning)} | ${cell(words.join(', '))} |`;
  });
  return ['| exit | meaning | `reason` words |', '|---|---|---|', ...rows].join('\n');
}

function globalOptionsTable(): string {
  const rows = Object.values(GLOBAL_OPTIONS).map((o) => `| ${code(o.flags)} | ${cell(o.help)} |`);
  return ['| option | meaning |', '|---|---|', ...rows].join('\n');
}

/** How to take each kind of id out of a command's --json document (test/skill.test.ts runs each against the sandbox). */
const EXTRACT: Record<string, string> = {
  conversation: "wsctl caps --jq '.text_agent.numbers[].conversation_id | values'",
  persona: "wsctl convo show <conversation_id> --jq '[.messages[].persona_id | values] | unique[]'",
  app: "wsctl caps --jq '.connected_apps[].app_slug'",
  account: "wsctl caps --jq '.connected_apps[].account_identifier | values'",
};

/** Where each kind of id comes from: a list, not a table (a `|` in a jq filter would need escaping in a table cell). */
function idSources(facts: SkillFacts): string {
  const items = [
    ['API key', "`wsctl keys list --jq '.keys[].id'`"],
    ...facts.idSources.map(([kind, where]) => [kind, EXTRACT[kind] ? `${code(EXTRACT[kind])}; ${where}` : where]),
    ['published version', "`wsctl persona versions <persona_id> --jq '.published[].id'`"],
    ['device, publication', 'the service lists none: ask the person (the sandbox has `dev_laptop`, `dev_phone`, `pub_demo`)'],
  ];
  return items.map(([kind, where]) => `- **${kind}**: ${where}`).join('\n');
}

/** What a command changes, said after its line. */
function changeNote(c: SkillCommand): string {
  if (c.changes === 'destructive') return " *(may delete: needs the person's yes, then `--yes`)*";
  if (c.changes === 'write') return ' *(changes the workspace)*';
  return '';
}

function commandList(facts: SkillFacts): string {
  return facts.commands.map((c) => `- ${code(c.usage)}: ${c.summary}${changeNote(c)}`).join('\n');
}

const listed = (paths: string[]) => paths.map((p) => code(`wsctl ${p}`)).join(', ');

/** The skill's text without its digest. */
function body(facts: SkillFacts): string {
  const agentVariables = [...AGENT_VARIABLES.map(([v]) => v), 'AI_AGENT', 'WSCTL_AGENT'].map(code).join(', ');
  const policies = AGENT_POLICIES.join('|');
  const topics = TOPICS.map((t) => code(`wsctl help ${t.name}`)).join(', ');
  return `---
name: ${SKILL_NAME}
description: ${DESCRIPTION}
metadata:
${GENERATOR_LINE}
  sha256: ""
---

# wsctl

wsctl administers a person's AI-assistant workspace over HTTP: API keys, conversations, capabilities,
connected apps, devices, personas, publications, websites and model providers. It is made to be
driven by programs and agents: machine output on every command, stable exit codes, and errors that
name the command that goes on.

## Start here

1. \`wsctl auth status --json\`: the profile and service in effect, whether the key works (\`valid\`),
   and what agents may do there (\`agents\`). Exit 4 means nobody is logged in: ask the person to run
   \`wsctl auth login\` themselves. Never ask for an API key in the chat.
2. To try something without touching a real workspace, add \`--sandbox\` (or set \`WSCTL_SANDBOX=1\`):
   a local workspace with demo data under stable ids (\`conv_demo\`, \`conv_live\`, \`persona_demo\`,
   \`dev_laptop\`, \`dev_phone\`, \`pub_demo\`, the apps \`gmail\` and \`notion\`; key ids are random).
   Its state lives in the config folder (\`sandbox.json\` beside \`config.json\`, or in
   \`WSCTL_CONFIG_DIR\`): keep the same folder from one call to the next, or every call starts a
   fresh sandbox. \`wsctl sandbox reset\` restores it. \`conv_live\` is a conversation that is still
   running: \`wsctl convo show conv_live --follow --json\` prints its messages as they come.
3. Before a command you have not used, read its description instead of guessing:
   \`wsctl help --json device rm\` gives one command's arguments, options (with their types and
   choices), what it changes, whether it asks for confirmation, the policies that refuse it, its exit
   codes and the JSON Schema of its \`--json\` output. \`wsctl help --json\` lists every command with
   what it changes (\`none\`, \`write\` or \`destructive\`). Don't scrape \`--help\`. Topics for people:
   ${topics}.

## How wsctl behaves under an agent

wsctl knows an agent runs it when one of ${agentVariables} is set, and then:

- it never prompts, as with \`--no-input\`: where a person would be asked (a missing id, a
  confirmation), it exits 2 and names the argument or flag that answers. Don't pipe answers into it;
- it uses no pager and no spinner;
- the profile's agent policy applies (below).

If none of these variables is set where you run, pass \`--no-input\` yourself (or set
\`WSCTL_AGENT=<your name>\`).

## Getting data

- \`--json\`: exactly one JSON document on stdout, with the service's field names (snake_case).
  Nothing else goes to stdout: progress, warnings and errors go to stderr.
- \`--jq '<expression>'\`: the \`--json\` document filtered with jq 1.8, built in (no \`jq\` needed);
  implies \`--json\`. Each result is on its own line, strings without quotes:
  \`wsctl keys list --jq '.keys[].id'\`.
- Don't guess a document's shape: look at it once with \`--json\`, or read the \`output_schema\` of
  \`wsctl help --json <command words>\`. A filter that fails is exit 2 (\`jq_error\`), with jq's message.
- Without them, a list piped is one record per line, tab-separated, no header, and a detail view
  (\`convo show\`) is text for people. Prefer \`--json\`.
- \`--dry-run\` prints the request a command would send (method, URL, body; secrets masked) and
  sends nothing; a local command says what it would change. Use it to show a person what will happen.
- Global options go before or after the command words:

${globalOptionsTable()}

## Where ids come from

Never invent an id, or guess one from a name: take it from a command's output.

${idSources(facts)}

\`wsctl ids [<kind>] --json\` lists the ids earlier commands showed or took, for this profile and
service (\`{"ids": [{"kind", "id", "description", "last_seen"}]}\`). A command run without its id
exits 2 (\`missing_argument\`) and says where such ids come from.

## Reading failures

${exitTable()}

With \`--json\` (or \`--jq\`), a failure prints nothing on stdout and one document on stderr:

\`\`\`json
{"error": {"message": "…", "exit_code": 2, "reason": "confirmation_required",
  "next": [{"command": "wsctl device rm dev_phone --yes", "why": "Only the person's yes allows this: …"}]}}
\`\`\`

Branch on \`reason\`, never on the message. \`next\`, when present, lists the exact command lines
that go on, each with \`why\` (when to run it). Without \`--json\`, the error's last line is
\`Next: <command>\`. What to do:

- \`confirmation_required\`: a person must agree first (next section). Ask; run the \`next\` command
  only after they said yes.
- \`policy_refused\`: the profile's agent policy forbids it. Stop and tell the person; don't look for
  another way to do it.
- \`not_logged_in\`, \`auth_rejected\`, \`wrong_origin\`, \`credential_store\`: the person must log in
  (\`wsctl auth login\`, or the \`next\` command). You cannot fix it.
- \`missing_argument\`: when there is a \`next\` command (such as \`wsctl caps\` for a conversation
  id), run it to find the id, then run yours again; otherwise the message names the flag or the
  input that gives what is missing (a provider key comes from the person: see below).
- \`usage\`, \`invalid_input\`: read \`wsctl help --json <command words>\`; a typo gets a suggestion.
- \`rejected_input\` (HTTP 422): \`details\` names each field the service refused.
- \`not_found\`: the id is wrong, or already gone (after a removal: it was removed). Don't retry it.
- \`network\`, \`timeout\`, \`bad_response\`: wsctl has already retried what is safe to repeat; try
  once more later, or with a longer \`--timeout\`.
- \`service_error\`, \`service_failure\`: the service refused; report its message.
- \`local_error\`: a file wsctl reads or writes cannot be used (the message names it and what to
  do); running the same line again changes nothing until the file is fixed.
- \`declined\`: the person said no. Don't ask again for the same thing.

## When a person must say yes

Commands that delete (${listed(facts.deleting)}, ${listed(facts.anyMethod.map((p) => `${p} <path> -X DELETE`))}:
every command that sends DELETE) ask on a terminal; under an agent they exit 2
(\`confirmation_required\`) unless given \`--yes\`. \`--yes\` stands for the person's yes: pass it
only after the person has agreed, in this conversation, to this action on this target: a request
that names both ("remove device dev_phone") is such a yes; a goal ("tidy up my devices") is not, so
say what you would remove and ask. Never add \`--yes\` on your own, never reuse a yes for another
target, and never get around a refusal with \`wsctl api\`.

Ask the person first, too, before a call of ${listed(facts.confirmedElsewhere)} that does one of these:

- \`--force\`: it replaces what exists (a profile, a website);
- a permission other than \`read\`: it gives an app more access;
- registering a model provider: future conversations go to it, and its key must come from the
  person (\`--api-key-stdin\` or \`WSCTL_BYOK_API_KEY\`), never through the chat. A request that names
  the provider, its URL and the model is the person's yes; the key is still theirs to give: hand
  them the \`byok add\` command line, with \`--api-key-stdin\`, to run. If they paste a key into the chat, don't
  use it: say so, give them that line, and suggest they rotate the key, since the chat has seen it.
  \`--dry-run\` shows the request without a key;
- uploading a local file: it leaves the machine.

On the command line wsctl does not ask for these (\`wsctl mcp\` asks the person itself, which is
why \`wsctl help --json\` says they confirm), so the asking is yours.

## Agent policies

A person can limit what agents may do with a profile: \`wsctl profile agents <profile> <${policies}>\`
(default \`full\`); \`wsctl auth status --json\` and \`wsctl profile list --json\` show it as \`agents\`.

- \`full\`: everything, with the confirmations above.
- \`no-destructive\`: no deleting and no \`--force\`.
- \`read-only\`: only commands that read; every request but a GET is refused, \`wsctl api\` included.

Under either limit, \`wsctl auth token\`, \`wsctl auth logout\` and \`wsctl profile rm\` are refused too.
A refusal is exit 4 (\`policy_refused\`) before anything is sent. An agent may narrow a policy but
never widen it. Don't switch profiles or change variables to get around one.

## Secrets

- Never run \`wsctl auth token\`: it prints the API key into your context.
- \`wsctl keys create\` shows the new key's secret once (\`--save-as <profile>\` also stores it in a
  profile). Don't repeat it unless the person asks for it.

## When \`wsctl mcp\` suits better

\`wsctl mcp\` serves the same commands as MCP tools (\`keys_list\`, \`convo_show\`, \`device_rm\`, …)
with typed arguments and output schemas, and asks the person itself, through the client, before a
call that deletes, replaces, widens access or sends data away. Prefer it when your client speaks MCP
and the person will use the workspace often, when confirmations should come from the client rather
than from you, or when deleting should be off altogether (removal tools are offered only with
\`--allow-destructive\`; \`--read-only\` offers reads alone). The person sets it up:
\`wsctl mcp install --client claude-code\` (\`--dry-run\` shows the change first; under an agent,
entries that widen what an agent may do are refused). Stay with the command line for one-off tasks,
local commands (profiles, aliases, the sandbox, \`wsctl ids\`) and pipes.

## Commands

${commandList(facts)}
`;
}

/** SKILL.md: the text with its digest (see writtenByWsctl). */
export function skillMarkdown(facts: SkillFacts): string {
  const text = body(facts);
  return text.replace(DIGEST, `  sha256: "${sha256(text)}"`);
}
