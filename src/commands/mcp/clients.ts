// The MCP clients wsctl knows: the shape each one's config file gives a stdio server, and where
// that file usually lives on each platform (README.md, "Serving AI agents", says the same).
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import type { Env } from '../../config/resolve.js';
import { homedir } from '../../common/builtins.js';
import { UsageError } from '../../errors.js';

export const CLIENT_NAMES = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'zed',
  'codex',
  'gemini-cli',
  'opencode',
] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/** What starts the server: the same three fields in every client. */
export interface ServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

interface Client {
  label: string;
  /** The top-level object (a TOML table for Codex) that holds the servers, by name. */
  key: 'mcpServers' | 'servers' | 'context_servers' | 'mcp_servers' | 'mcp';
  /** JSON with comments, or Codex's TOML. */
  format?: 'toml';
  /** VS Code wants the transport named. */
  typed?: boolean;
  /** Keys the client's documentation puts before the command (Zed's `"source": "custom"`). */
  extra?: Record<string, string>;
  /** A shape of the client's own, where command, args and env are not three fields (OpenCode). */
  shape?(entry: ServerEntry): Record<string, unknown>;
  file(at: Place): string;
}

interface Place {
  platform: NodeJS.Platform;
  home: string;
  env: Env;
  join(...parts: string[]): string;
  /** Whether something (a file, a link, even a dangling one) is at the path. */
  exists(path: string): boolean;
  /** Whether the file at the path holds an entry named `wsctl` (a look at its text, before it is parsed). */
  holdsWsctl(path: string): boolean;
  /** The file is to be changed: where two could be meant, the person says which. */
  changing: boolean;
}

/** The per-user settings folder of an app: Application Support, %APPDATA%, or $XDG_CONFIG_HOME. */
function appFolder(at: Place, name: { mac: string; windows: string; linux: string }): string {
  if (at.platform === 'darwin') return at.join(at.home, 'Library', 'Application Support', name.mac);
  if (at.platform === 'win32') return at.join(at.env.APPDATA || at.join(at.home, 'AppData', 'Roaming'), name.windows);
  return at.join(at.env.XDG_CONFIG_HOME || at.join(at.home, '.config'), name.linux);
}

const CLIENTS: Record<ClientName, Client> = {
  'claude-desktop': {
    label: 'Claude Desktop',
    key: 'mcpServers',
    file: (at) => at.join(appFolder(at, { mac: 'Claude', windows: 'Claude', linux: 'Claude' }), 'claude_desktop_config.json'),
  },
  // User scope: the servers of every project. Claude Code rewrites this file itself; the edit keeps the rest.
  'claude-code': { label: 'Claude Code', key: 'mcpServers', file: (at) => at.join(at.home, '.claude.json') },
  cursor: { label: 'Cursor', key: 'mcpServers', file: (at) => at.join(at.home, '.cursor', 'mcp.json') },
  vscode: {
    label: 'VS Code',
    key: 'servers',
    typed: true,
    file: (at) => at.join(appFolder(at, { mac: 'Code', windows: 'Code', linux: 'Code' }), 'User', 'mcp.json'),
  },
  windsurf: { label: 'Windsurf', key: 'mcpServers', file: (at) => at.join(at.home, '.codeium', 'windsurf', 'mcp_config.json') },
  // Zed keeps ~/.config/zed on macOS too; on Windows it is %APPDATA%\Zed.
  zed: {
    label: 'Zed',
    key: 'context_servers',
    // Zed's documentation gives a server of one's own `"source": "custom"` before its command
    // (https://zed.dev/docs/ai/mcp, "As Custom Servers"; docs/src/ai/mcp.md in zed-industries/zed).
    extra: { source: 'custom' },
    file: (at) =>
      at.platform === 'win32'
        ? at.join(at.env.APPDATA || at.join(at.home, 'AppData', 'Roaming'), 'Zed', 'settings.json')
        : at.join(at.env.XDG_CONFIG_HOME || at.join(at.home, '.config'), 'zed', 'settings.json'),
  },
  // Codex reads `[mcp_servers.<name>]` tables with `command`, `args` and `env` from
  // $CODEX_HOME/config.toml, ~/.codex by default (https://developers.openai.com/codex/mcp;
  // docs/config.md, "MCP integration", in openai/codex).
  codex: {
    label: 'Codex',
    key: 'mcp_servers',
    format: 'toml',
    file: (at) => at.join(at.env.CODEX_HOME || at.join(at.home, '.codex'), 'config.toml'),
  },
  // Gemini CLI's user settings, `mcpServers` with `command`, `args` and `env`
  // (https://geminicli.com/docs/tools/mcp-server; docs/tools/mcp-server.md in google-gemini/gemini-cli).
  'gemini-cli': { label: 'Gemini CLI', key: 'mcpServers', file: (at) => at.join(at.home, '.gemini', 'settings.json') },
  // OpenCode: a local server is `"type": "local"` with the whole command line as one array, and its
  // variables in `environment` (https://opencode.ai/docs/mcp-servers, "Local"). Its global config is
  // ~/.config/opencode (XDG, on every platform), as opencode.json or opencode.jsonc
  // (https://opencode.ai/docs/config, "Global"): the one there is edited, never a second one made.
  opencode: {
    label: 'OpenCode',
    key: 'mcp',
    shape: ({ command, args, env }) => ({
      type: 'local',
      command: [command, ...args],
      enabled: true,
      ...(env ? { environment: env } : {}),
    }),
    file(at) {
      const folder = at.join(at.env.XDG_CONFIG_HOME || at.join(at.home, '.config'), 'opencode');
      const [json, jsonc] = [at.join(folder, 'opencode.json'), at.join(folder, 'opencode.jsonc')];
      if (!at.exists(jsonc)) return json;
      if (!at.exists(json)) return jsonc;
      // Both: the one that holds wsctl's entry, so that no second entry is made in the other.
      const holding = [json, jsonc].filter((file) => at.holdsWsctl(file));
      if (holding.length === 1) return holding[0] as string;
      if (!at.changing) return json;
      throw new UsageError(`OpenCode has both ${json} and ${jsonc}: pass --config with the one to change.`);
    },
  },
};

/** Whether the client's file is TOML (Codex) rather than JSON with comments. */
export function isToml(name: ClientName): boolean {
  return CLIENTS[name].format === 'toml';
}

export function clientLabel(name: ClientName): string {
  return CLIENTS[name].label;
}

/** The path inside the client's file where wsctl's entry lives. */
export function entryPath(name: ClientName): [string, string] {
  return [CLIENTS[name].key, 'wsctl'];
}

/** The entry as the client's file holds it. */
export function clientEntry(name: ClientName, entry: ServerEntry): Record<string, unknown> {
  const client = CLIENTS[name];
  if (client.shape) return client.shape(entry);
  return { ...(client.typed ? { type: 'stdio' } : {}), ...client.extra, ...entry };
}

/** The whole snippet `wsctl mcp config` prints. */
export function snippet(name: ClientName, entry: ServerEntry): Record<string, unknown> {
  return { [CLIENTS[name].key]: { wsctl: clientEntry(name, entry) } };
}

function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A client's config file is a few kilobytes; ~/.claude.json grows to megabytes. Past this it is not
 * read. Here, not in client-file.ts, which `wsctl mcp` must not load (it brings the JSONC parser).
 */
export const MAX_BYTES = 10 * 1024 * 1024;

/** Only a regular file of a config file's size is read (a FIFO would block, cli.md §8). */
function holdsWsctl(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.size <= MAX_BYTES && /"wsctl"\s*:/.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

/** The client's usual config file for this user on this platform; `changing` when it is to be written. */
export function clientFile(
  name: ClientName,
  env: Env,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = present,
  changing = true,
): string {
  const windows = platform === 'win32';
  const home = (windows ? env.USERPROFILE : env.HOME) || homedir();
  return CLIENTS[name].file({ platform, home, env, join: windows ? win32.join : posix.join, exists, holdsWsctl, changing });
}
