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

/**
 * The answer the SDK's Server gives an `initialize` request, or undefined for a message that is
 * not one, or not plainly a valid one (the SDK then answers it, with its own checks).
 */
export function initializeAnswer(message: unknown, version: string): { id: string | number; line: string } | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  if (!isObject(params) || typeof params.protocolVersion !== 'string') return undefined;
  if (params._meta !== undefined && !isObject(params._meta)) return undefined;
  const { capabilities, clientInfo } = params;
  if (!isObject(capabilities) || !Object.values(capabilities).every(isObject)) return undefined;
  if (!isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  const protocolVersion = PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : PROTOCOL_VERSIONS[0];
  const result = { protocolVersion, capabilities: CAPABILITIES, serverInfo: serverInfo(version), instructions: INSTRUCTIONS };
  return { id, line: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
}
