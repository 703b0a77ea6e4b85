// The MCP tools of `wsctl mcp`: one per command of the tree that calls the service (cli.md §8).
// Each tool names its command, takes that command's arguments and options (snake case) checked by
// the same zod definitions as the request bodies, and calls the verb's own run(opts, ctx): the
// same HTTP layer, retries, redaction and validation as on the command line.
// test/mcp/tools.test.ts compares this table with the command tree, so the two cannot drift.
import * as z from 'zod/mini';
import { settle, splitPath, type Call, type Ctx, type Result } from '../command.js';
import { checkProfileName } from '../config/index.js';
import { ByokBody, CreateKeyBody, CreateWebsiteBody, NotesImportBody, PermissionBody, nonEmpty, responseSchemas } from '../schemas.js';
import { mask, plain } from '../terminal/index.js';
import { checkProviderUrl, run as byokAdd } from '../commands/byok/add.js';
import { run as caps } from '../commands/caps.js';
import { run as connRm } from '../commands/conn/rm.js';
import { run as connSetPermission } from '../commands/conn/set-permission.js';
import { run as convoShow } from '../commands/convo/show.js';
import { transcriptRenderer } from '../conversation/transcript.js';
import { run as deviceRm } from '../commands/device/rm.js';
import { run as keysCreate } from '../commands/keys/create.js';
import { run as keysList } from '../commands/keys/list.js';
import { run as notesImport } from '../commands/notes/import.js';
import { run as personaUploadAvatar } from '../commands/persona/upload-avatar.js';
import { run as personaVersions } from '../commands/persona/versions.js';
import { run as pubRm } from '../commands/pub/rm.js';
import { run as settings } from '../commands/settings.js';
import { run as siteCreate } from '../commands/site/create.js';
import type { Conversation } from '../schemas.js';

/** A verb's answer as a tool's: its request sent (tools never take --dry-run). */
async function settled(ctx: Ctx, returned: Promise<Result | Call | void>): Promise<Result> {
  const result = await settle(ctx, await returned);
  if (!result) throw new Error('The verb returned nothing.');
  return result;
}

/** reads change nothing; writes add or change; destructive ones delete (offered only with --allow-destructive). */
export type ToolKind = 'read' | 'write' | 'destructive';

export interface ServerOptions {
  showSecrets: boolean;
}

/** What a call gives back: the command's --json document, and any text besides it. */
export interface ToolOutput {
  document: unknown;
  /** convo_show's Markdown transcript. */
  text?: string;
  /** A 2xx body that reports failure (exit 1), as the command would say. */
  failure?: string;
}

export interface Tool<S extends z.ZodMiniObject = z.ZodMiniObject> {
  name: string;
  /** The command's words: ['keys', 'create']. */
  command: string[];
  kind: ToolKind;
  idempotent: boolean;
  /** Reaches beyond the workspace (a third-party app). */
  openWorld: boolean;
  /** For agents, instead of the command's description where that speaks of terminals, prompts or flags. */
  description?: string;
  /** One more sentence for agents, after the command's own description. */
  note?: string;
  input: S;
  output: z.ZodMiniType;
  /** Arguments that replace or delete what exists (force): offered only with --allow-destructive. */
  destructiveArgs?: string[];
  /** Options of the command that have no meaning for a tool (prompts, paging, terminal output). */
  cliOnly: string[];
  /** Arguments of the tool that the command takes another way (stdin, a prompt). */
  toolOnly: string[];
  /** shown: the document the call returns when it is not the verb's own (a key masked). */
  call(args: z.infer<S>, ctx: Ctx, options: ServerOptions): Promise<{ result: Result | void; text?: (document: unknown) => string; shown?: { document: unknown } }>;
}

function tool<S extends z.ZodMiniObject>(definition: Tool<S>): Tool {
  return definition as unknown as Tool;
}

const id = nonEmpty;
const flag = z.optional(z.boolean());
const optionalText = z.optional(z.string());
const none = z.strictObject({});

/** A path such as a/b/c, split on / by the command. */
const folders = z.optional(nonEmpty);

/** `device rm` and `pub rm` print the body as is, or {"success": true} when there is none. */
const Removed = z.looseObject({ success: z.optional(z.boolean()) });

export const TOOLS: Tool[] = [
  tool({
    name: 'keys_create',
    command: ['keys', 'create'],
    kind: 'write',
    idempotent: false,
    openWorld: false,
    note: 'The new key is returned masked unless the server was started with --show-secrets; save_as stores it in a wsctl profile.',
    input: z.strictObject({ name: CreateKeyBody.shape.name, save_as: optionalText, force: flag, insecure_storage: flag }),
    destructiveArgs: ['force'],
    output: responseSchemas.ApiKeyCreated,
    cliOnly: [],
    toolOnly: [],
    async call(args, ctx, options) {
      // Masked, the key is not shown: no warning to copy it.
      const result = await settled(ctx, keysCreate({ name: args.name, saveAs: args.save_as === undefined ? undefined : checkProfileName(args.save_as), force: args.force, insecureStorage: args.insecure_storage, keyHidden: !options.showSecrets }, ctx));
      if (options.showSecrets) return { result };
      // Masked in what is returned; result.json keeps the key in full, for when saving it fails.
      const key = result.json as { key?: string };
      return { result, shown: { document: { ...key, key: mask(key.key) } } };
    },
  }),
  tool({
    name: 'keys_list',
    command: ['keys', 'list'],
    kind: 'read',
    idempotent: true,
    openWorld: false,
    input: none,
    output: responseSchemas.ApiKeyList,
    cliOnly: [],
    toolOnly: [],
    call: async (_args, ctx) => ({ result: await settled(ctx, keysList(ctx)) }),
  }),
  tool({
    name: 'convo_show',
    command: ['convo', 'show'],
    kind: 'read',
    idempotent: true,
    openWorld: false,
    note: 'Returns the last `tail` messages (default 50) as Markdown text besides the document.',
    input: z.strictObject({ conversation_id: id, tail: z._default(z.int().check(z.minimum(0)), 50) }),
    output: responseSchemas.Conversation,
    cliOnly: ['markdown', 'full', 'pager', 'follow', 'interval'],
    toolOnly: [],
    async call(args, ctx) {
      const result = await settled(ctx, convoShow({ id: args.conversation_id, tail: args.tail, markdown: true, pager: false, full: false, whole: true }, ctx));
      return { result, text: (document) => markdown(document as Conversation) };
    },
  }),
  tool({
    name: 'caps',
    command: ['caps'],
    kind: 'read',
    idempotent: true,
    openWorld: false,
    input: none,
    output: responseSchemas.Capabilities,
    cliOnly: [],
    toolOnly: [],
    call: async (_args, ctx) => ({ result: await settled(ctx, caps(ctx)) }),
  }),
  tool({
    name: 'settings',
    command: ['settings'],
    kind: 'read',
    idempotent: true,
    openWorld: false,
    input: none,
    output: responseSchemas.Settings,
    cliOnly: [],
    toolOnly: [],
    call: async (_args, ctx) => ({ result: await settled(ctx, settings(ctx)) }),
  }),
  tool({
    name: 'notes_import',
    command: ['notes', 'import'],
    kind: 'write',
    idempotent: false,
    openWorld: true,
    input: z.strictObject({ page_id: NotesImportBody.shape.page_id, title: NotesImportBody.shape.title, to: folders, account: z.optional(id) }),
    output: responseSchemas.NotesImported,
    cliOnly: [],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, notesImport({ pageId: args.page_id, title: args.title, to: args.to === undefined ? undefined : splitPath(args.to, '--to'), account: args.account }, ctx)) }),
  }),
  tool({
    name: 'conn_set_permission',
    command: ['conn', 'set-permission'],
    kind: 'write',
    idempotent: true,
    openWorld: false,
    input: z.strictObject({ app_slug: id, pd_conn_id: id, permission: PermissionBody.shape.permission }),
    output: responseSchemas.Success,
    cliOnly: [],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, connSetPermission({ appSlug: args.app_slug, connId: args.pd_conn_id, permission: args.permission }, ctx)) }),
  }),
  tool({
    name: 'conn_rm',
    command: ['conn', 'rm'],
    description: 'Remove a connection to a third-party app, at once: nothing asks to confirm',
    kind: 'destructive',
    idempotent: true,
    openWorld: false,
    input: z.strictObject({ app_slug: id, pd_conn_id: id }),
    output: responseSchemas.Success,
    cliOnly: ['yes'],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, connRm({ appSlug: args.app_slug, connId: args.pd_conn_id, yes: true }, ctx)) }),
  }),
  tool({
    name: 'byok_add',
    command: ['byok', 'add'],
    description: 'Register a model provider, with its API key as api_key',
    kind: 'write',
    idempotent: false,
    openWorld: false,
    note: 'The provider key is returned masked.',
    input: z.strictObject({
      name: ByokBody.shape.name,
      provider_url: ByokBody.shape.base_url,
      format: ByokBody.shape.format,
      model: ByokBody.shape.model_id,
      api_key: ByokBody.shape.api_key,
    }),
    output: responseSchemas.ByokConfig,
    cliOnly: ['api_key_stdin', 'show_secret'],
    toolOnly: ['api_key'],
    // The key goes to the verb whole, which checks it as it checks a key read from stdin.
    call: async (args, ctx) => ({
      result: await settled(ctx, byokAdd({ name: args.name, providerUrl: checkProviderUrl(args.provider_url), format: args.format, model: args.model, apiKeyStdin: false, showSecret: false, apiKey: args.api_key }, ctx)),
    }),
  }),
  tool({
    name: 'device_rm',
    command: ['device', 'rm'],
    description: 'Remove a registered device, at once: nothing asks to confirm',
    kind: 'destructive',
    idempotent: true,
    openWorld: false,
    input: z.strictObject({ device_id: id }),
    output: Removed,
    cliOnly: ['yes'],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, deviceRm({ deviceId: args.device_id, yes: true }, ctx)) }),
  }),
  tool({
    name: 'persona_versions',
    command: ['persona', 'versions'],
    kind: 'read',
    idempotent: true,
    openWorld: false,
    input: z.strictObject({ persona_id: id }),
    output: responseSchemas.PublishedList,
    cliOnly: [],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, personaVersions({ personaId: args.persona_id }, ctx)) }),
  }),
  tool({
    name: 'persona_upload_avatar',
    command: ['persona', 'upload-avatar'],
    kind: 'write',
    idempotent: false,
    openWorld: false,
    note: 'file is a path on the machine that runs wsctl (relative to its working folder).',
    input: z.strictObject({ file: nonEmpty }),
    output: responseSchemas.ImageUploaded,
    cliOnly: [],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, personaUploadAvatar({ file: args.file }, ctx)) }),
  }),
  tool({
    name: 'pub_rm',
    command: ['pub', 'rm'],
    description: 'Unpublish a published conversation, at once: nothing asks to confirm',
    kind: 'destructive',
    idempotent: true,
    openWorld: false,
    input: z.strictObject({ pub_id: id }),
    output: Removed,
    cliOnly: ['yes'],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, pubRm({ pubId: args.pub_id, yes: true }, ctx)) }),
  }),
  tool({
    name: 'site_create',
    command: ['site', 'create'],
    kind: 'write',
    idempotent: false,
    openWorld: false,
    input: z.strictObject({
      name: CreateWebsiteBody.shape.name,
      variant: CreateWebsiteBody.shape.variant,
      parent: folders,
      force: flag,
      display_name: optionalText,
    }),
    destructiveArgs: ['force'],
    output: responseSchemas.WebsiteCreated,
    cliOnly: [],
    toolOnly: [],
    call: async (args, ctx) => ({ result: await settled(ctx, siteCreate({ name: args.name, variant: args.variant, parent: args.parent === undefined ? undefined : splitPath(args.parent, '--parent'), force: args.force, displayName: args.display_name }, ctx)) }),
  }),
];

/** The tools a server offers: reads alone with --read-only; destructive ones only with --allow-destructive. */
export function offered(flags: { readOnly?: boolean; allowDestructive?: boolean }): Tool[] {
  return TOOLS.filter((t) => (flags.readOnly ? t.kind === 'read' : t.kind !== 'destructive' || !!flags.allowDestructive)).map((t) =>
    // Without --allow-destructive a tool has no argument that replaces what exists: passing it fails the schema.
    flags.allowDestructive || !t.destructiveArgs?.length ? t : { ...t, input: z.omit(t.input, Object.fromEntries(t.destructiveArgs.map((a) => [a, true]))) },
  );
}

/** The transcript as Markdown, as `convo show --markdown` prints it (control characters removed). */
function markdown(conversation: Conversation): string {
  const renderer = transcriptRenderer({ tty: false, paint: plain, width: 0, full: false }, true);
  let text = renderer.header(conversation);
  for (const message of conversation.messages) text += renderer.message(message);
  return text + renderer.end(conversation.messages.length);
}
