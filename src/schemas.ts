// Zod schemas of the service's resources and request bodies (service-interface.md §2, §4). The
// client checks every response with them and builds every body to them; the sandbox checks its
// own replies and every body it receives with the same schemas, so the two cannot drift.
// Every field the interface does not promise is nullish. Fields the schemas do not name are
// allowed, and kept: wsctl prints and uses the body as received, not zod's (stripped) copy.
// zod/mini: the same validation as zod's full build at a fraction of its load time.
// Each schema is made when first asked for (`ApiKeyList()`): zod builds a schema's parts as it is
// made, which for all of them took 3.9 ms of every command's start (Node 24; 4.7 on Node 20), and
// a command checks one or two.
import * as z from 'zod/mini';
import { byokFormats, websiteVariants } from './enums.js';

/** A schema made on first use, then the same one. */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const text = once(() => z.string());
const timestamp = once(() => z.string());
const maybe = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

export const ApiKeyCreated = once(() =>
  z.object({
    id: text(),
    name: maybe(text()),
    key: text(),
    key_prefix: maybe(text()),
    created_at: maybe(timestamp()),
  }),
);

export const ApiKeyListing = once(() =>
  z.object({
    id: text(),
    name: maybe(text()),
    key_prefix: maybe(text()),
    created_at: maybe(timestamp()),
    last_used_at: maybe(timestamp()),
  }),
);

export const ApiKeyList = once(() => z.object({ keys: z.array(ApiKeyListing()) }));

export const MessagePart = once(() =>
  z.object({
    part_kind: maybe(text()),
    content: maybe(z.unknown()),
    tool_name: maybe(text()),
    tool_call_id: maybe(text()),
    args: maybe(z.unknown()),
    timestamp: maybe(timestamp()),
  }),
);

export const Message = once(() =>
  z.object({
    kind: maybe(text()),
    parts: maybe(z.array(MessagePart())),
    timestamp: maybe(timestamp()),
    model_name: maybe(text()),
    persona_id: maybe(text()),
    persona_name: maybe(text()),
    persona_image: maybe(text()),
    input_tokens: maybe(z.number()),
    output_tokens: maybe(z.number()),
    cache_read_tokens: maybe(z.number()),
    cache_write_tokens: maybe(z.number()),
    metadata: maybe(z.record(z.string(), z.unknown())),
  }),
);

export const ConversationDetail = once(() =>
  z.object({
    id: text(),
    user_id: maybe(text()),
    host_id: maybe(text()),
    title: maybe(text()),
    type: maybe(text()),
    created_at: maybe(timestamp()),
    updated_at: maybe(timestamp()),
    deleted_at: maybe(timestamp()),
    metadata: maybe(z.record(z.string(), z.unknown())),
  }),
);

export const Conversation = once(() =>
  z.object({
    conversation: ConversationDetail(),
    messages: z.array(Message()),
    // Tolerant: a state the interface does not list yet is shown as it comes.
    state: maybe(text()),
  }),
);

export const NumberEntry = once(() =>
  z.object({
    phone: text(),
    name: maybe(text()),
    description: maybe(text()),
    is_owner: maybe(z.boolean()),
    conversation_id: maybe(text()),
  }),
);

export const ConnectedApp = once(() =>
  z.object({
    app_slug: text(),
    permission: maybe(text()),
    account_identifier: maybe(text()),
    account_name: maybe(text()),
  }),
);

export const Prompt = once(() =>
  z.object({
    path: text(),
    title: maybe(text()),
    description: maybe(text()),
  }),
);

export const Capabilities = once(() =>
  z.object({
    text_agent: maybe(z.object({ numbers: maybe(z.array(NumberEntry())) })),
    email_agent: maybe(z.object({ addresses: maybe(z.array(text())) })),
    connected_apps: maybe(z.array(ConnectedApp())),
    prompts: maybe(z.array(Prompt())),
  }),
);

export const Settings = once(() =>
  z.object({
    timezone: maybe(text()),
    default_greeting_prompt: maybe(text()),
    icon: maybe(text()),
    language: maybe(text()),
    phone_number: maybe(text()),
    greeting_prompt: maybe(text()),
    name: maybe(text()),
    suggested_name: maybe(text()),
    bio: maybe(text()),
  }),
);

export const NotesImported = once(() => z.object({ filename: text() }));

export const Success = once(() => z.object({ success: z.boolean() }));

export const ByokConfig = once(() =>
  z.object({
    id: text(),
    name: text(),
    base_url: text(),
    api_key: maybe(text()),
    format: text(),
    model_id: text(),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

export const PublishedVersion = once(() => z.object({ id: text(), created_at: maybe(timestamp()) }));

export const PublishedList = once(() => z.object({ published: z.array(PublishedVersion()) }));

export const Website = once(() =>
  z.object({
    local_port: maybe(z.number()),
    path: maybe(text()),
    name: maybe(text()),
    entrypoint_output: maybe(text()),
  }),
);

export const ToolError = once(() =>
  z.object({
    message: maybe(text()),
    kind: maybe(text()),
    code: maybe(text()),
  }),
);

export const WebsiteCreated = once(() =>
  z.object({
    data: maybe(Website()),
    error: maybe(ToolError()),
  }),
);

export const ImageUploaded = once(() => z.object({ url: text() }));

/** The response schemas by name, for src/http/decode.ts: each made when first asked for. */
export const responseSchemas = {
  ApiKeyCreated,
  ApiKeyList,
  Conversation,
  Capabilities,
  Settings,
  NotesImported,
  Success,
  ByokConfig,
  PublishedList,
  WebsiteCreated,
  ImageUploaded,
};

// Request bodies: the `body` of the entries of src/service.ts that send one.
export const nonEmpty = once(() =>
  z
    .string()
    .check(z.refine((v) => v.trim() !== '', { message: 'String should have at least 1 character', params: { type: 'string_too_short' } })),
);
const httpUrl = once(() =>
  z
    .string()
    .check(z.refine((v) => /^https?:\/\/[^\s/]+/.test(v), { message: 'Input should be a valid URL', params: { type: 'url_parsing' } })),
);

export const CreateKeyBody = once(() => z.object({ name: nonEmpty().check(z.maxLength(64)) }));
export const NotesImportBody = once(() =>
  z.object({
    page_id: nonEmpty(),
    title: z.optional(z.string()),
    target_path: z.optional(z.array(z.string())),
    account_id: z.optional(z.string()),
  }),
);
export const PermissionBody = once(() => z.object({ permission: nonEmpty() }));
export const ByokBody = once(() =>
  z.object({ name: nonEmpty(), base_url: httpUrl(), api_key: nonEmpty(), format: z.enum(byokFormats), model_id: nonEmpty() }),
);
export const CreateWebsiteBody = once(() =>
  z.object({
    name: nonEmpty(),
    variant: z.optional(z.enum(websiteVariants)),
    parent_path_parts: z.nullish(z.array(z.string())),
    force: z.optional(z.boolean()),
    display_name: z.nullish(z.string()),
  }),
);

export type CreateKeyBody = z.infer<ReturnType<typeof CreateKeyBody>>;
export type NotesImportBody = z.infer<ReturnType<typeof NotesImportBody>>;
export type PermissionBody = z.infer<ReturnType<typeof PermissionBody>>;
export type ByokBody = z.infer<ReturnType<typeof ByokBody>>;
export type CreateWebsiteBody = z.infer<ReturnType<typeof CreateWebsiteBody>>;

export interface Detail {
  loc: string[];
  msg: string;
  type: string;
}

/** zod's issues as the service's 422 entries (FastAPI's wording), located in the body. */
export function validationDetails(issues: readonly z.core.$ZodIssue[], input: unknown): Detail[] {
  return issues.map((issue) => {
    const loc = ['body', ...issue.path.map(String)];
    const value = issue.path.reduce<unknown>(
      (at, key) => (at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined),
      input,
    );
    if (issue.code === 'invalid_type') {
      if (issue.path.length === 0) return { loc, msg: 'Input should be a valid JSON object', type: 'model_attributes_type' };
      if (value === undefined || value === null) return { loc, msg: 'Field required', type: 'missing' };
      const expected = issue.expected === 'array' ? 'list' : String(issue.expected);
      return { loc, msg: `Input should be a valid ${expected}`, type: `${expected}_type` };
    }
    if (issue.code === 'invalid_value') {
      const list = issue.values.map((v) => `'${String(v)}'`);
      return { loc, msg: `Input should be ${list.slice(0, -1).join(', ')} or ${list.at(-1)}`, type: 'enum' };
    }
    if (issue.code === 'too_big')
      return { loc, msg: `String should have at most ${String(issue.maximum)} characters`, type: 'string_too_long' };
    const type = issue.code === 'custom' && typeof issue.params?.type === 'string' ? issue.params.type : issue.code;
    return { loc, msg: issue.message, type };
  });
}

export type SchemaName = keyof typeof responseSchemas;
export type Response<N extends SchemaName> = z.infer<ReturnType<(typeof responseSchemas)[N]>>;
export type ApiKeyCreated = z.infer<ReturnType<typeof ApiKeyCreated>>;
export type ApiKeyListing = z.infer<ReturnType<typeof ApiKeyListing>>;
export type Conversation = z.infer<ReturnType<typeof Conversation>>;
export type Message = z.infer<ReturnType<typeof Message>>;
export type MessagePart = z.infer<ReturnType<typeof MessagePart>>;
export type Capabilities = z.infer<ReturnType<typeof Capabilities>>;
export type Settings = z.infer<ReturnType<typeof Settings>>;
export type ByokConfig = z.infer<ReturnType<typeof ByokConfig>>;
export type WebsiteCreated = z.infer<ReturnType<typeof WebsiteCreated>>;
export type ToolError = z.infer<ReturnType<typeof ToolError>>;
