// What `wsctl mcp` says of itself in its answer to `initialize`, in one place: the server gives it
// to the SDK's Server, and the launcher answers a plain `initialize` with it before the program has
// loaded (./early.ts, a speed trick). Nothing here loads the SDK.

export const INSTRUCTIONS =
  'Administers a personal AI-assistant workspace through wsctl: API keys, conversations, capabilities, settings, connections, models, devices, personas, publications and sites. ' +
  'Every tool takes an optional `jq` argument, a jq 1.8 filter of the document it returns, to ask for less: the result is then {"jq": [the values the filter gives]}, and its text those values as compact JSON, one per line (convo_show\'s Markdown too is replaced); a filter that does not compile or fails is an error (exit code 2) with jq\'s message. A result of more than 4 MiB is not sent, a filtered one included. ' +
  'byok_add takes no API key, which must never pass through the model: the server has it from its environment, or opens a page on 127.0.0.1 through the client (URL-mode elicitation) where the person pastes it.';

export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, completions: {} };

export function serverInfo(version: string): { name: string; title: string; version: string } {
  return { name: 'wsctl', title: 'wsctl', version };
}

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS, newest first (test/mcp/early.test.ts holds them to the pinned SDK's). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** No _meta, or one with a progress token alone (a string or an integer). */
const plainMeta = (meta: unknown): boolean =>
  meta === undefined ||
  (isObject(meta) &&
    only(meta, ['progressToken']) &&
    (meta.progressToken === undefined || typeof meta.progressToken === 'string' || Number.isSafeInteger(meta.progressToken)));
const only = (value: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(value).every((k) => keys.includes(k));

/** An object whose values are objects, all the way down: what every object-typed capability takes. */
const objectsAllTheWay = (value: unknown): boolean => isObject(value) && Object.values(value).every(objectsAllTheWay);

/** Capabilities as clients send them, each in the shape the SDK's schema takes; anything else is left to the SDK. */
function plainCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { roots, sampling, elicitation, ...rest } = value;
  if (
    roots !== undefined &&
    !(isObject(roots) && only(roots, ['listChanged']) && [undefined, true, false].includes(roots.listChanged as never))
  )
    return false;
  if (sampling !== undefined && !(isObject(sampling) && only(sampling, ['context', 'tools']) && Object.values(sampling).every(isObject)))
    return false;
  if (elicitation !== undefined) {
    if (!isObject(elicitation) || !only(elicitation, ['form', 'url'])) return false;
    const { form, url } = elicitation;
    if (form !== undefined && !(isObject(form) && [undefined, true, false].includes(form.applyDefaults as never))) return false;
    if (url !== undefined && !isObject(url)) return false;
  }
  // experimental, tasks, extensions and any capability the SDK does not know: objects of objects.
  return Object.values(rest).every(objectsAllTheWay);
}

/** Client info: name and version, and the optional fields the SDK knows, in their types. */
function plainClientInfo(value: unknown): boolean {
  if (!isObject(value) || !only(value, ['name', 'version', 'title', 'description', 'websiteUrl', 'icons'])) return false;
  const { name, version, icons, ...texts } = value;
  if (typeof name !== 'string' || typeof version !== 'string' || !Object.values(texts).every((t) => typeof t === 'string')) return false;
  const icon = (i: unknown) =>
    isObject(i) && only(i, ['src', 'mimeType']) && Object.values(i).every((v) => typeof v === 'string') && 'src' in i;
  return icons === undefined || (Array.isArray(icons) && icons.every(icon));
}

/**
 * The answer the SDK's Server gives an `initialize` request, or undefined for a message that is
 * not one, or not plainly a valid one: only a request every part of which the SDK's schemas take
 * (test/mcp/early.test.ts holds it to them) is answered here; the SDK answers the rest itself.
 */
export function initializeAnswer(message: unknown, version: string): { id: string | number; line: string } | undefined {
  if (!isObject(message) || !only(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  if (message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isObject(params) || !only(params, ['protocolVersion', 'capabilities', 'clientInfo', '_meta'])) return undefined;
  if (typeof params.protocolVersion !== 'string' || !plainMeta(params._meta)) return undefined;
  if (!plainCapabilities(params.capabilities) || !plainClientInfo(params.clientInfo)) return undefined;
  const protocolVersion = PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : PROTOCOL_VERSIONS[0];
  const result = { protocolVersion, capabilities: CAPABILITIES, serverInfo: serverInfo(version), instructions: INSTRUCTIONS };
  return { id, line: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
}
