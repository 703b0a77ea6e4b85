// The sandbox's implementation of every endpoint of src/service.ts (service-interface.md), with
// the validation (422), not-found (404) and state changes a real service would have.
import type * as z from 'zod/mini';
import { connectionPermissions } from '../enums.js';
import { IMAGE_EXTENSIONS, sniffImageType } from '../common/images.js';
import {
  ByokBody,
  CreateKeyBody,
  CreateWebsiteBody,
  NotesImportBody,
  PermissionBody,
  validationDetails,
  type Detail,
  type SchemaName,
} from '../schemas.js';
import { boundaryOf, parseMultipart } from './multipart.js';
import { LIVE_ID, liveStart, liveView } from './live.js';
import { newKey, randomId, type SandboxState } from './seed.js';
import {
  compileTemplate,
  endpointNames,
  endpoints,
  matchTemplate,
  type CompiledTemplate,
  type Endpoint,
  type EndpointName,
} from '../service.js';
import type { Store } from './store.js';

export interface Reply {
  status: number;
  body?: unknown;
  /** The body already serialised (large conversations are serialised once per state). */
  text?: string;
  /** A non-JSON body (uploaded images). */
  raw?: { contentType: string; data: Buffer };
  schema?: SchemaName;
}

export interface RouteInput {
  params: Record<string, string>;
  raw: Buffer;
  json: unknown;
  contentType?: string;
  store: Store;
  origin: string;
}

export type Handler = (input: RouteInput) => Promise<Reply>;

export interface Route {
  method: string;
  template: string;
  auth: boolean;
  /** What a 2xx reply with a body must match, unless the reply names its own. */
  schema?: SchemaName;
  handle: Handler;
}

export function notFound(what: string): Reply {
  return { status: 404, body: { detail: `${what} not found` } };
}

function invalid(details: Detail[]): Reply {
  return { status: 422, body: { detail: details } };
}

/** The body checked with the client's own request schema, or the 422 the service would send. */
function checked<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly z.core.$ZodIssue[] } } },
  json: unknown,
): { body: T } | { reply: Reply } {
  const result = schema.safeParse(json);
  return result.success ? { body: result.data } : { reply: invalid(validationDetails(result.error.issues, json)) };
}

const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function badId(name: string): Reply {
  return invalid([
    { loc: ['path', name], msg: 'Identifier may contain letters, digits, "_", ".", ":" and "-" only', type: 'string_pattern_mismatch' },
  ]);
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'untitled'
  );
}

function capabilities(state: SandboxState) {
  return {
    text_agent: { numbers: state.numbers },
    email_agent: { addresses: state.addresses },
    connected_apps: state.connections.map(({ app_slug, permission, account_identifier, account_name }) => ({
      app_slug,
      permission,
      account_identifier,
      account_name,
    })),
    prompts: state.prompts,
  };
}

// No route changes a conversation, and a file store loads new objects when its file changes,
// so a conversation's serialisation cannot go stale.
const serialised = new WeakMap<object, string>();

/** One handler per endpoint of the table: leaving one out does not compile. */
export const handlers: Record<EndpointName, Handler> = {
  async createKey({ json, store }) {
    const input = checked(CreateKeyBody(), json);
    if ('reply' in input) return input.reply;
    const key = newKey(input.body.name);
    await store.transact((s) => void s.keys.push(key));
    const { last_used_at: _unused, ...created } = key;
    return { status: 201, body: created };
  },
  async listKeys({ store }) {
    const state = await store.read();
    const keys = state.keys.map(({ key: _secret, ...listing }) => listing);
    return { status: 200, body: { keys } };
  },
  async getConversation({ params, store }) {
    const live = (await store.read()).conversations[LIVE_ID] as { started_at?: string | null } | undefined;
    if (params.conversation_id === LIVE_ID && live) {
      // The clock is written once, at the first read; later reads only look at it.
      const startedAt = live.started_at ? Date.parse(live.started_at) : await store.transact((state) => liveStart(state));
      return { status: 200, body: liveView(startedAt, Date.now()) };
    }
    const conversation = (await store.read()).conversations[params.conversation_id as string];
    if (!conversation) return notFound('Conversation');
    const text = serialised.get(conversation);
    if (text) return { status: 200, text };
    serialised.set(conversation, JSON.stringify(conversation));
    return { status: 200, body: conversation, text: serialised.get(conversation) };
  },
  async getCapabilities({ store }) {
    return { status: 200, body: capabilities(await store.read()) };
  },
  async importNote({ json, store }) {
    const input = checked(NotesImportBody(), json);
    if ('reply' in input) return input.reply;
    const { page_id: pageId, title, target_path: targetPath } = input.body;
    return store.transact((s) => {
      const page = s.pages[pageId];
      if (!page) return notFound('Page');
      const folder = (targetPath ?? []).map(slug).join('/');
      const filename = `${folder ? `${folder}/` : ''}${slug(title ?? page.title)}.md`;
      s.imports.push({ filename, page_id: pageId });
      return { status: 200, body: { filename } } as Reply;
    });
  },
  async getSettings({ store }) {
    return { status: 200, body: (await store.read()).settings };
  },
  async setConnectionPermission({ params, json, store }) {
    const input = checked(PermissionBody(), json);
    if ('reply' in input) return input.reply;
    const { permission } = input.body;
    return store.transact((s) => {
      const conn = s.connections.find((c) => c.app_slug === params.app_slug && c.pd_conn_id === params.pd_conn_id);
      if (!conn) return notFound('Connection');
      // The interface lists no permission values; the sandbox knows three and refuses others.
      if (!connectionPermissions.includes(permission)) return { status: 200, body: { success: false } } as Reply;
      conn.permission = permission;
      return { status: 200, body: { success: true } } as Reply;
    });
  },
  async addByok({ json, store }) {
    const input = checked(ByokBody(), json);
    if ('reply' in input) return input.reply;
    const now = new Date().toISOString();
    const config = { id: `byok_${randomId(10)}`, ...input.body, created_at: now, updated_at: now };
    await store.transact((s) => void s.byok.push(config));
    return { status: 201, body: config };
  },
  async removeDevice({ params, store }) {
    const id = params.device_id as string;
    if (!ID.test(id)) return badId('device_id');
    return store.transact((s) => {
      const index = s.devices.findIndex((d) => d.id === id);
      if (index < 0) return notFound('Device');
      s.devices.splice(index, 1);
      return { status: 204 } as Reply;
    });
  },
  async listPublishedVersions({ params, store }) {
    const persona = (await store.read()).personas[params.persona_id as string];
    if (!persona) return notFound('Persona');
    return { status: 200, body: { published: persona.published } };
  },
  async createWebsite({ json, store }) {
    const input = checked(CreateWebsiteBody(), json);
    if ('reply' in input) return input.reply;
    const { name, variant = 'blank', force = false, display_name: displayName = null } = input.body;
    const parent = input.body.parent_path_parts ?? [];
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(name)) {
      return {
        status: 200,
        body: {
          data: null,
          error: { message: `Invalid site name '${name}': use lowercase letters, digits and '-'.`, kind: 'error', code: 'invalid_name' },
        },
      };
    }
    return store.transact((s) => {
      const existing = s.websites.findIndex((w) => w.name === name);
      if (existing >= 0 && !force) {
        return {
          status: 200,
          body: {
            data: null,
            error: {
              message: `A website named '${name}' already exists. Pass force to replace it.`,
              kind: 'error',
              code: 'already_exists',
            },
          },
        } as Reply;
      }
      const path = ['sites', ...parent.map(slug), name].join('/');
      const port = existing >= 0 ? (s.websites[existing] as { local_port: number }).local_port : 4100 + s.websites.length + 1;
      const site = { name, path, local_port: port, variant, display_name: displayName };
      if (existing >= 0) s.websites.splice(existing, 1, site);
      else s.websites.push(site);
      const entrypoint_output = `Scaffolded ${variant} site '${displayName ?? name}' in ${path}\nDev server listening on http://127.0.0.1:${port}`;
      return { status: 200, body: { data: { local_port: port, path, name, entrypoint_output }, error: null } } as Reply;
    });
  },
  async uploadPersonaImage({ raw, contentType, store, origin }) {
    const boundary = boundaryOf(contentType);
    if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !boundary) {
      return invalid([{ loc: ['body'], msg: 'Expected multipart/form-data', type: 'value_error' }]);
    }
    const file = parseMultipart(raw, boundary).find((p) => p.name === 'file' && p.filename !== undefined);
    if (!file) return invalid([{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }]);
    const type = sniffImageType(file.data);
    if (!type) return invalid([{ loc: ['body', 'file'], msg: 'File is not a PNG, JPEG, GIF or WebP image', type: 'value_error' }]);
    const id = `${randomId(16)}.${IMAGE_EXTENSIONS[type]}`;
    await store.transact((s) => void (s.uploads[id] = { content_type: type, data: file.data.toString('base64') }));
    return { status: 200, body: { url: `${origin}/uploads/${id}` } };
  },
  async removeConnection({ params, store }) {
    return store.transact((s) => {
      const index = s.connections.findIndex((c) => c.app_slug === params.app_slug && c.pd_conn_id === params.pd_conn_id);
      if (index < 0) return notFound('Connection');
      s.connections.splice(index, 1);
      return { status: 200, body: { success: true } } as Reply;
    });
  },
  async removePublication({ params, store }) {
    return store.transact((s) => {
      const index = s.publications.findIndex((p) => p.id === params.pub_id);
      if (index < 0) return notFound('Publication');
      s.publications.splice(index, 1);
      return { status: 200, body: { success: true } } as Reply;
    });
  },
};

/** Routes of the sandbox that are not the service's: uploaded images, public like a CDN's. */
const extraRoutes: Route[] = [
  {
    method: 'GET',
    template: '/uploads/{id}',
    auth: false,
    async handle({ params, store }) {
      const upload = (await store.read()).uploads[params.id as string];
      if (!upload) return notFound('Upload');
      return { status: 200, raw: { contentType: upload.content_type, data: Buffer.from(upload.data, 'base64') } };
    },
  },
];

export interface Match {
  route: Route;
  params: Record<string, string>;
}

/** The service's endpoints, then the sandbox's own routes. */
export const routes: Route[] = [
  ...endpointNames.map((name): Route => {
    const { method, path, response } = endpoints[name] as Endpoint;
    return { method, template: path, auth: true, schema: response, handle: handlers[name] };
  }),
  ...extraRoutes,
];

// Compiled when first matched: a route added to the list (a test's endpoint of tomorrow) is served too.
const compiled = new WeakMap<Route, CompiledTemplate>();

/** The route for a raw (still percent-encoded) path; 'method' when only the method is wrong. */
export function findRoute(method: string, rawPath: string): Match | 'method' | undefined {
  let wrongMethod = false;
  for (const route of routes) {
    let template = compiled.get(route);
    if (!template) compiled.set(route, (template = compileTemplate(route.template)));
    const params = matchTemplate(template, rawPath);
    if (!params) continue;
    if (route.method !== method) {
      wrongMethod = true;
      continue;
    }
    return { route, params };
  }
  return wrongMethod ? 'method' : undefined;
}
