// The layers of src/, one folder each, and who may import whom: the HTTP client, the config, the
// terminal and the generators (completion, help and man pages) stand alone (on the leaf modules:
// common/, tricks/ and the root's errors, enums and schemas); the ids wsctl remembers sit on the
// config; the sandbox and the service table on the HTTP client; the conversation engine (convo
// show's stream, spool, transcript and follow loop) on the HTTP client, the service table and the
// terminal; the verb framework (verbs/: declarations, the pipeline both doors take, confirmations,
// the agent policy, the ids a verb takes, the context's types) and the commands on all of them; the
// MCP server on the commands (and the engine, for Markdown transcripts); the process (cli/: argv,
// the command line's door, the context's making, reports, generated files) on top.
// No layer imports upward or sideways, type-only imports included, so each can be read and tested
// alone: nothing outside cli/ names it, not even a type. A new folder must be given a layer here; a
// new file in a folder has its folder's.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

type Layer =
  | 'leaf'
  | 'http'
  | 'config'
  | 'ids'
  | 'terminal'
  | 'completion'
  | 'help'
  | 'service'
  | 'sandbox'
  | 'conversation'
  | 'commands'
  | 'mcp'
  | 'cli'
  | 'boot';

/** What each layer may import besides itself and the leaf modules. */
const MAY_IMPORT: Record<Layer, Layer[]> = {
  leaf: [],
  http: [],
  config: [],
  ids: ['config'],
  terminal: [],
  completion: ['config', 'ids', 'help'],
  help: ['service'],
  service: ['http'],
  sandbox: ['http', 'config', 'service'],
  conversation: ['http', 'terminal', 'service'],
  commands: ['http', 'config', 'ids', 'terminal', 'completion', 'help', 'service', 'sandbox', 'conversation'],
  mcp: ['http', 'config', 'ids', 'terminal', 'help', 'service', 'conversation', 'commands'],
  cli: ['http', 'config', 'ids', 'terminal', 'completion', 'help', 'service', 'sandbox', 'conversation', 'commands', 'mcp'],
  // What bin/wsctl runs: the answers given without the program (MCP's initialize among them).
  boot: ['mcp'],
};

/** Each folder's layer (the verb framework is part of the commands layer). */
const FOLDERS: Record<string, Layer> = {
  common: 'leaf',
  tricks: 'leaf',
  http: 'http',
  config: 'config',
  ids: 'ids',
  terminal: 'terminal',
  completion: 'completion',
  help: 'help',
  sandbox: 'sandbox',
  conversation: 'conversation',
  verbs: 'commands',
  commands: 'commands',
  mcp: 'mcp',
  cli: 'cli',
  boot: 'boot',
};
/** The root holds plain data every layer may use, the endpoint table, and the bundle's entry. */
const ROOT_FILES: Record<string, Layer> = {
  'errors.ts': 'leaf',
  'enums.ts': 'leaf',
  'schemas.ts': 'leaf',
  'service.ts': 'service',
  'main.ts': 'cli',
};
/** The edges that cross a layer on purpose, with their reasons. */
const CROSSINGS: Record<string, string> = {
  // The `mcp` verb starts the server, which serves the other verbs as tools (loaded on use only).
  'commands/mcp/index.ts → mcp/mcp-server.ts': 'the mcp verb starts the MCP server',
  // wsctl's own code cache stays in the boot file's code (issue 45); the program asks it for the
  // jq engine's file, which only a filter needs (the program takes the module from dist/boot.cjs).
  'terminal/jq.ts → boot/code-cache.ts': "the jq engine's file runs from the boot file's code cache",
  // A run's kind, which names its code cache and its V8 flags, says whether its filter needs the
  // jq engine: a path, read without it, does not (the program takes the module from dist/boot.cjs).
  'boot/index.ts → terminal/jq-path.ts': 'a run of the jq engine has a kind of its own; a path does not run the engine',
};

/** The one reader of boolean variables (outside src/, where the launcher once read it too). */
const SHARED_LEAVES = ['../bin/booleans.cjs'];

function layerOf(file: string): Layer | undefined {
  if (SHARED_LEAVES.includes(file)) return 'leaf';
  const [top, ...rest] = file.split('/');
  if (rest.length === 0) return ROOT_FILES[top as string];
  return FOLDERS[top as string];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  /** An import() rather than an import statement. */
  dynamic: boolean;
}

/** Every relative import of src/, static or dynamic, with whether it is type-only. */
function imports(): Edge[] {
  const src = join(ROOT, 'src');
  return sourceFiles(src).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const from = relative(src, path);
    const edges: Edge[] = [];
    const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
    for (const m of text.matchAll(pattern)) {
      const spec = (m[3] ?? m[4]) as string;
      const to = relative(src, join(dirname(path), spec)).replace(/\.js$/, '.ts');
      edges.push({ from, to, typeOnly: !!m[2], dynamic: m[4] !== undefined });
    }
    return edges;
  });
}

describe('layers', () => {
  const edges = imports();

  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'commands/device/rm.ts', to: 'verbs/removal.ts', typeOnly: false, dynamic: false });
    expect(edges).toContainEqual({ from: 'cli/program.ts', to: 'commands/keys/index.ts', typeOnly: false, dynamic: true });
  });

  it('every module of src/ has a layer', () => {
    const unplaced = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((f) => !layerOf(f));
    expect(unplaced, 'give these a layer in test/layers.test.ts').toEqual([]);
  });

  it('no module imports upward or sideways', () => {
    const wrong = edges.filter(({ from, to }) => {
      const a = layerOf(from) as Layer;
      const b = layerOf(to) as Layer;
      if (a === b || b === 'leaf') return false;
      if (CROSSINGS[`${from} → ${to}`]) return false;
      return !MAY_IMPORT[a].includes(b);
    });
    expect(wrong.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    const named = new Set(edges.map((e) => `${e.from} → ${e.to}`));
    for (const crossing of Object.keys(CROSSINGS)) expect(named.has(crossing), `stale crossing: ${crossing}`).toBe(true);
  });

  it('nothing outside cli/ imports from cli/, not even a type: the doors hand down what they made', () => {
    const upward = edges.filter(({ from, to }) => layerOf(from) !== 'cli' && layerOf(to) === 'cli');
    expect(upward.map((e) => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`)).toEqual([]);
  });

  it("a command loads its own noun's modules only: program.ts imports a noun when argv names it, and a command's run (door.ts) leaves loaded.ts alone", () => {
    const isNoun = (file: string) => /^commands\/([^/]+\/index|[^/]+)\.ts$/.test(file);
    const toNouns = edges.filter((e) => layerOf(e.from) === 'cli' && isNoun(e.to) && !e.typeOnly);
    expect(toNouns.length).toBeGreaterThanOrEqual(21);
    expect(toNouns.filter((e) => e.from !== 'cli/program.ts' || !e.dynamic).map((e) => `${e.from} → ${e.to}`)).toEqual([]);
    expect(edges.filter((e) => e.from === 'cli/door.ts' && e.to === 'cli/loaded.ts')).toEqual([]);
  });

  it('has no import cycles between modules', () => {
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const to of next.get(file) ?? []) visit(to, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of next.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
