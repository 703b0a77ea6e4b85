// What `npm run docs` writes (scripts/generate.mjs): everything generated from the command tree.
import type { Command } from 'commander';
import type { App } from './command.js';
import { buildProgram, declaredVerbs, loadCommands } from './program.js';
import { VERSION } from './runner.js';

/**
 * The files generated from the command tree: completion scripts, man pages (and package.json's
 * list of them), and the README's command list and tables of settings and exit codes.
 */
/** README's table of MCP tools: each tool, its command, what it is and whether a person confirms it. */
async function mcpToolTable(): Promise<string> {
  const { mcpToolsOf } = await import('./app.js');
  const rows = (await mcpToolsOf(await declaredVerbs())).map((t) => {
    const kind = t.kind === 'read' ? 'read' : t.kind === 'destructive' ? 'destructive, only with `--allow-destructive`' : 'write';
    // A tool that asks whatever its arguments say asks of empty ones too (or reads them to say what it asks).
    const always = (() => {
      try {
        return !!t.spec.confirm?.({} as never);
      } catch {
        return true;
      }
    })();
    const confirm = !t.spec.confirm ? '' : always ? 'every call' : 'some calls (below)';
    return `| \`${t.name}\` | \`wsctl ${t.path.join(' ')}\` | ${kind} | ${confirm} |`;
  });
  return ['| tool | command | kind | a person confirms |', '|---|---|---|---|', ...rows].join('\n');
}

export async function generatedFiles(readme?: string, packageJson?: string): Promise<Record<string, string>> {
  const { completionScript, COMPLETION_FILES, commandReference, replaceReference, manPages, replaceSection, settingsTable, exitCodeTable } = await import('./app.js');
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
  const pages = manPages(program, helpOf);
  for (const [file, text] of Object.entries(pages)) files[`man/${file}`] = text;
  if (readme !== undefined) {
    let text = replaceReference(readme, commandReference(program));
    text = replaceSection(text, 'settings', settingsTable());
    text = replaceSection(text, 'exit-codes', exitCodeTable());
    files['README.md'] = replaceSection(text, 'mcp-tools', await mcpToolTable());
  }
  if (packageJson !== undefined) {
    const pkg = JSON.parse(packageJson);
    pkg.man = Object.keys(pages).map((file) => `./man/${file}`);
    files['package.json'] = `${JSON.stringify(pkg, null, 2)}\n`;
  }
  return files;
}
