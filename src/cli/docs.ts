// What `npm run docs` writes (scripts/generate.mjs): everything generated from the command tree.
import type { Command } from 'commander';
import { DECLARED } from '../common/declared.js';
import type { App } from '../verbs/declare.js';
import { buildProgram, declaredVerbs, loadCommands } from './program.js';
import { VERSION } from './run.js';

/**
 * The version and date the man pages carry: package.json's version and the date of its entry in
 * CHANGELOG.md (`## [0.1.0] - 2026-11-26`), never today's, so the pages are the same on every run.
 */
export function releaseOf(packageJson?: string, changelog?: string): { version: string; date: string } {
  const version = packageJson === undefined ? VERSION : (JSON.parse(packageJson) as { version: string }).version;
  if (changelog === undefined) return { version, date: '' };
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const entry = new RegExp(`^## \\[?${escaped}\\]? - (\\d{4}-\\d{2}-\\d{2})$`, 'm').exec(changelog);
  if (!entry) throw new Error(`CHANGELOG.md has no entry "## [${version}] - YYYY-MM-DD" for the version in package.json.`);
  return { version, date: entry[1] as string };
}

/** README's table of MCP tools: each tool, its command, what it is and whether a person confirms it. */
async function mcpToolTable(): Promise<string> {
  const { mcpToolsOf } = await import('./loaded.js');
  const rows = (await mcpToolsOf(await declaredVerbs())).map((t) => {
    const kind = t.changes === 'none' ? 'read' : t.changes === 'destructive' ? 'destructive, only with `--allow-destructive`' : 'write';
    const confirm = t.asks === 'never' ? '' : t.asks === 'always' ? 'every call' : 'some calls (below)';
    return `| \`${t.name}\` | \`wsctl ${t.path.join(' ')}\` | ${kind} | ${confirm} |`;
  });
  return ['| tool | command | kind | a person confirms |', '|---|---|---|---|', ...rows].join('\n');
}

/** The README's example of the agent policies, which names what no-destructive refuses. */
function agentPolicies(): string {
  const lines = [
    ['wsctl profile agents work read-only', 'agents may only read'],
    ['wsctl profile agents work no-destructive', `no ${DECLARED.deleting.join(', ')}, nor any --force`],
    ['wsctl profile agents work full', 'the default'],
    ['wsctl profile list', 'the AGENTS column; "agents" in --json'],
  ];
  return ['```sh', ...lines.map(([command, said]) => `${command!.padEnd(43)}# ${said}`), '```'].join('\n');
}

/** Every `<!--name-->…<!--/name-->` span of a text (a list inside a sentence) with its new body. */
export function replaceSpans(text: string, name: string, body: string): string {
  return text.replace(new RegExp(`(<!--${name}-->)[^<]*(<!--/${name}-->)`, 'g'), (_m, open: string, close: string) => open + body + close);
}

/**
 * The files generated from the command tree: completion scripts, man pages (and package.json's
 * list of them), the MCP registry's `server.json`, the agent skill, and the README's command list,
 * its tables of settings and exit codes, and the lists of commands in its sentences.
 */
export async function generatedFiles(readme?: string, packageJson?: string, changelog?: string): Promise<Record<string, string>> {
  const {
    completionScript,
    COMPLETION_FILES,
    commandReference,
    replaceReference,
    manPages,
    replaceSection,
    settingsTable,
    exitCodeTable,
    skillText,
    serverJson,
  } = await import('./loaded.js');
  let help = '';
  const app: App = { run: async () => {}, loadAll: (p: Command) => loadCommands(p, app, 'all') };
  const program = buildProgram(VERSION, { writeOut: (t) => (help += t), writeErr: () => {}, onUsageError: () => {} });
  await app.loadAll(program);
  const helpOf = (command: Command) => {
    help = '';
    command.outputHelp();
    return help;
  };
  const files: Record<string, string> = {};
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    files[`completions/${file}`] = completionScript(program, shell as keyof typeof COMPLETION_FILES);
  }
  const pages = manPages(program, helpOf, releaseOf(packageJson, changelog));
  for (const [file, text] of Object.entries(pages)) files[`man/${file}`] = text;
  // The agent skill the package ships (`wsctl skill` prints the same text).
  files['skills/wsctl/SKILL.md'] = skillText(await declaredVerbs());
  if (readme !== undefined) {
    let text = replaceReference(readme, commandReference(program));
    text = replaceSection(text, 'settings', settingsTable());
    text = replaceSection(text, 'exit-codes', exitCodeTable());
    text = replaceSection(text, 'agent-policies', agentPolicies());
    text = replaceSpans(text, 'deleting', DECLARED.deleting.map((c) => `\`${c}\``).join(', '));
    files['README.md'] = replaceSection(text, 'mcp-tools', await mcpToolTable());
  }
  if (packageJson !== undefined) {
    const pkg = JSON.parse(packageJson);
    pkg.man = Object.keys(pages).map((file) => `./man/${file}`);
    files['package.json'] = `${JSON.stringify(pkg, null, 2)}\n`;
    // The MCP registry's entry, which names the npm package and version it describes.
    files['server.json'] = serverJson(pkg);
  }
  return files;
}
