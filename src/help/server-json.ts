// The package's entry for the MCP registry (`server.json`, written by `npm run docs`): the npm
// package started as `wsctl mcp` over stdio, with the environment variables that server reads,
// their meanings taken from the settings table so the entry says what `wsctl help environment` says.
import { SETTINGS } from './topics.js';

export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

interface PackageJson {
  name: string;
  version: string;
  mcpName: string;
  repository: { url: string };
}

type Format = 'string' | 'number' | 'boolean' | 'filepath';

/** What `wsctl mcp` reads from its environment, as a client configuring it would set it. */
const SERVER_VARIABLES: { name: string; format: Format; secret?: boolean }[] = [
  { name: 'WSCTL_API_KEY', format: 'string', secret: true },
  { name: 'WSCTL_PROFILE', format: 'string' },
  { name: 'WSCTL_BASE_URL', format: 'string' },
  { name: 'WSCTL_CONFIG_DIR', format: 'filepath' },
  { name: 'WSCTL_BYOK_API_KEY', format: 'string', secret: true },
  { name: 'WSCTL_TIMEOUT', format: 'number' },
  { name: 'WSCTL_SANDBOX', format: 'boolean' },
  { name: 'WSCTL_DEBUG', format: 'boolean' },
  { name: 'WSCTL_NO_HISTORY', format: 'boolean' },
  { name: 'HTTPS_PROXY', format: 'string' },
  { name: 'HTTP_PROXY', format: 'string' },
  { name: 'NO_PROXY', format: 'string' },
];

/**
 * wsctl's own variables that the entry leaves out, and why: a new WSCTL_ variable in the settings
 * table is in one list or the other (test/server-json.test.ts).
 */
export const NOT_FOR_THE_SERVER: Record<string, string> = {
  WSCTL_NO_INPUT: 'the server never prompts',
  WSCTL_PAGER: 'the server pages nothing',
  WSCTL_ACCESSIBLE: 'the server draws nothing on a terminal',
  WSCTL_AGENT: "the server's caller is an agent's client, and every call is confirmed by the client",
  WSCTL_RETRY_BASE_MS: 'for tests',
  WSCTL_MAX_RESPONSE_MB: 'for tests',
};

export const SERVER_VARIABLE_NAMES = SERVER_VARIABLES.map((v) => v.name);

/** The registry allows 100 characters; the first clause of the setting's meaning, without markup. */
function meaningOf(variable: string): string {
  const setting = SETTINGS.find((s) => s.env?.some((e) => e.split('=')[0] === variable));
  if (!setting) throw new Error(`${variable} is not in the settings table (src/help/topics.ts).`);
  const first = setting.meaning.replaceAll('`', '').split(/; |: | \(/)[0] as string;
  return first.charAt(0).toUpperCase() + first.slice(1);
}

export function serverJson(pkg: PackageJson): string {
  const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const entry = {
    $schema: SERVER_SCHEMA,
    name: pkg.mcpName,
    title: 'wsctl',
    description: 'Administer a personal AI-assistant workspace: keys, devices, conversations, personas, providers.',
    repository: { url: repository, source: 'github' },
    version: pkg.version,
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: pkg.name,
        version: pkg.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        packageArguments: [{ type: 'positional', value: 'mcp' }],
        environmentVariables: SERVER_VARIABLES.map((v) => ({
          name: v.name,
          description: meaningOf(v.name),
          format: v.format,
          isRequired: false,
          isSecret: v.secret === true,
        })),
      },
    ],
  };
  return `${JSON.stringify(entry, null, 2)}\n`;
}
