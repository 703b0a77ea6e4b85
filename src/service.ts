// The service's endpoints (service-interface.md §4) as data: method, path template, request
// body schema and response schema. Verbs build their requests from this table, the sandbox's
// router and handlers are keyed by it, and the test matrices iterate it: a path is written once.
import type * as z from 'zod/mini';
import type { Method, RequestSpec, Upload } from './http/index.js';
import { encodeSegment } from './http/url.js';
import { ByokBody, CreateKeyBody, CreateWebsiteBody, NotesImportBody, PermissionBody, type SchemaName } from './schemas.js';

export interface Endpoint {
  method: Method;
  /** Below the base URL; `{name}` is a path parameter. */
  path: string;
  /** The request body's schema (made when asked for), or 'multipart' for a file upload. */
  body?: (() => z.ZodMiniType) | 'multipart';
  /** The 2xx body's schema, as the interface describes it (the sandbox checks its replies with it). */
  response?: SchemaName;
  /** The client accepts any 2xx body, JSON or not: the interface shows no success body. */
  anyBody?: true;
  /** A repeat is safe although the method is neither GET nor DELETE. */
  idempotent?: true;
}

export const endpoints = {
  createKey: { method: 'POST', path: '/api-keys/', body: CreateKeyBody, response: 'ApiKeyCreated' },
  listKeys: { method: 'GET', path: '/api-keys/', response: 'ApiKeyList' },
  getConversation: { method: 'GET', path: '/conversations/{conversation_id}', response: 'Conversation' },
  getCapabilities: { method: 'GET', path: '/capabilities/', response: 'Capabilities' },
  importNote: { method: 'POST', path: '/connections/notes/import', body: NotesImportBody, response: 'NotesImported' },
  getSettings: { method: 'GET', path: '/settings/', response: 'Settings' },
  setConnectionPermission: {
    method: 'PATCH',
    path: '/connections/{app_slug}/{pd_conn_id}/permission',
    body: PermissionBody,
    response: 'Success',
    idempotent: true,
  },
  addByok: { method: 'POST', path: '/byok/', body: ByokBody, response: 'ByokConfig' },
  removeDevice: { method: 'DELETE', path: '/devices/{device_id}', anyBody: true },
  listPublishedVersions: { method: 'GET', path: '/pub/personas/{persona_id}/published', response: 'PublishedList' },
  createWebsite: { method: 'POST', path: '/user-services/create-website', body: CreateWebsiteBody, response: 'WebsiteCreated' },
  uploadPersonaImage: { method: 'POST', path: '/personas/upload-image', body: 'multipart', response: 'ImageUploaded' },
  removeConnection: { method: 'DELETE', path: '/connections/{app_slug}/{pd_conn_id}', response: 'Success' },
  removePublication: { method: 'DELETE', path: '/pub/{pub_id}', response: 'Success', anyBody: true },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
export const endpointNames = Object.keys(endpoints) as EndpointName[];

/** The names of a template's `{parameters}`. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
export type ParamsOf<E extends EndpointName> = Record<ParamNames<Endpoints[E]['path']>, string>;

type BodyInput<E extends EndpointName> = Endpoints[E] extends { body: 'multipart' }
  ? { upload: Upload }
  : Endpoints[E] extends { body: () => infer B extends z.ZodMiniType }
    ? { body: z.infer<B> }
    : { body?: undefined };

type ParamsInput<E extends EndpointName> = [ParamNames<Endpoints[E]['path']>] extends [never]
  ? { params?: undefined }
  : { params: ParamsOf<E> };

export type CallInput<E extends EndpointName> = ParamsInput<E> &
  BodyInput<E> & {
    /** Names what a 404 refers to: "device 'dev_phone'". */
    what?: string;
  };

/** The schema the client checks a 2xx body with: none where any body is accepted. */
export type ResponseOf<E extends EndpointName> = Endpoints[E] extends { anyBody: true }
  ? undefined
  : Endpoints[E] extends { response: infer R extends SchemaName }
    ? R
    : undefined;

/** The template with each parameter percent-encoded into its own segment. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No value for {${name}} in ${template}`);
    return encodeSegment(value);
  });
}

/** The request a verb sends to an endpoint, for `api.request()` or `api.stream()`. */
export function request<E extends EndpointName>(
  name: E,
  ...[input]: {} extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
): RequestSpec<ResponseOf<E>> {
  const endpoint: Endpoint = endpoints[name];
  const given = (input ?? {}) as { params?: Record<string, string>; body?: unknown; upload?: Upload; what?: string };
  return {
    method: endpoint.method,
    path: fillPath(endpoint.path, given.params),
    body: given.body,
    upload: given.upload,
    schema: (endpoint.anyBody ? undefined : endpoint.response) as ResponseOf<E>,
    idempotent: endpoint.idempotent,
    anyBody: endpoint.anyBody,
    what: given.what,
  };
}

export interface CompiledTemplate {
  regex: RegExp;
  names: string[];
}

/** A template as a matcher of raw (still percent-encoded) paths; a trailing slash is optional. */
export function compileTemplate(template: string): CompiledTemplate {
  const names: string[] = [];
  const pattern = template.replace(/\/$/, '').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { names, regex: new RegExp(`^${pattern}/?$`) };
}

/** The parameters of a raw path that matches, decoded; undefined when it does not match. */
export function matchTemplate(compiled: CompiledTemplate, rawPath: string): Record<string, string> | undefined {
  const found = compiled.regex.exec(rawPath);
  if (!found) return undefined;
  const params: Record<string, string> = {};
  compiled.names.forEach((name, i) => {
    params[name] = decodeURIComponent(found[i + 1] as string);
  });
  return params;
}
