// What `wsctl mcp` says of itself in its answer to `initialize`, in one place: the server gives it
// to the SDK's Server, and the launcher answers a plain `initialize` with it before the program has
// loaded (./early.ts, a speed trick). Nothing here loads the SDK.

export const INSTRUCTIONS =
  'Administers a personal AI-assistant workspace through wsctl: API keys, conversations, capabilities, settings, connections, models, devices, personas, publications and sites.';

export const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, completions: {} };

export function serverInfo(version: string): { name: string; title: string; version: string } {
  return { name: 'wsctl', title: 'wsctl', version };
}

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS, newest first (test/mcp/early.test.ts holds them to the pinned SDK's). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown): boolean => isObject(value) && Object.keys(value).length === 0;
const only = (value: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(value).every((k) => keys.includes(k));

/** Capabilities as clients send them, each in the shape the SDK's schema takes; anything else is left to the SDK. */
function plainCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { roots, sampling, elicitation, experimental } = value;
  if (!only(value, ['roots', 'sampling', 'elicitation', 'experimental'])) return false;
  if (
    roots !== undefined &&
    !(isObject(roots) && only(roots, ['listChanged']) && [undefined, true, false].includes(roots.listChanged as never))
  )
    return false;
  for (const [part, keys] of [
    [sampling, ['context', 'tools']],
    [elicitation, ['form', 'url']],
  ] as const)
    if (part !== undefined && !(isObject(part) && only(part, keys) && Object.values(part).every(isEmpty))) return false;
  return experimental === undefined || (isObject(experimental) && Object.values(experimental).every(isObject));
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
  if (typeof params.protocolVersion !== 'string' || (params._meta !== undefined && !isEmpty(params._meta))) return undefined;
  if (!plainCapabilities(params.capabilities)) return undefined;
  const { clientInfo } = params;
  if (!isObject(clientInfo) || !only(clientInfo, ['name', 'version', 'title'])) return undefined;
  if (typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  if (clientInfo.title !== undefined && typeof clientInfo.title !== 'string') return undefined;
  const protocolVersion = PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : PROTOCOL_VERSIONS[0];
  const result = { protocolVersion, capabilities: CAPABILITIES, serverInfo: serverInfo(version), instructions: INSTRUCTIONS };
  return { id, line: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
}
