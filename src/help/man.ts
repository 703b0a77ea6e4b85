// Manual pages from the command tree, as gh makes its own: wsctl(1) and one page per command
// (wsctl-keys-create(1), …). Written as roff directly: a page needs a dozen macros, fewer lines
// than wiring a Markdown-to-roff dependency, and the escaping that matters (backslashes, leading
// dots and quotes, hyphens as \-, non-ASCII as \[uXXXX]) is a few lines below.
import type { Command } from 'commander';
import { endpoints, type EndpointName } from '../service.js';
import { describedOf, visibleSubcommands } from '../common/visible.js';
import { environmentRows, EXIT_CODES, FILES, findTopic, TOPICS } from './topics.js';

/** Text for a roff text line or macro argument: nothing in it is read as a request or an escape. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (ch) => `\\[u${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** Prose: `code` in bold, and a line that would start with a control character made plain. */
function prose(text: string): string {
  const out = text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? `\\fB${roff(part.slice(1, -1))}\\fR` : roff(part)))
    .join('')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return /^[.']/.test(out) ? `\\&${out}` : out;
}

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

function tagged(rows: [string, string][], term: (t: string) => string = bold): string[] {
  return rows.flatMap(([t, text]) => ['.TP', term(t), prose(text)]);
}

/** The examples a command declares (the root's are in its help text). */
function examplesOf(command: Command, helpOf: (c: Command) => string): string[] {
  const declared = describedOf(command);
  if (declared) return declared.examples.map((e) => `$ ${e}`);
  const help = helpOf(command);
  const at = help.indexOf('\nExamples:\n');
  if (at < 0) return [];
  return help
    .slice(at)
    .split('\n')
    .filter((l) => l.startsWith('  $ '))
    .map((l) => l.slice(2));
}

/** What a command's help says besides its examples, as declared (where completion scripts go …). */
function notesOf(command: Command): string[] {
  const notes = (describedOf(command)?.notes ?? '').replace(/^\n+|\s+$/g, '');
  if (!notes) return [];
  return ['.PP', '.nf', ...notes.split('\n').map((l) => `\\&${roff(l)}`), '.fi'];
}

function exampleLines(examples: string[]): string[] {
  if (examples.length === 0) return [];
  return ['.SH EXAMPLES', '.PP', '.RS 4', '.nf', ...examples.map((e) => `\\&${roff(e)}`), '.fi', '.RE'];
}

/** The release the pages describe: its version and date (YYYY-MM-DD), fixed, so the pages are reproducible. */
export interface Release {
  version: string;
  date: string;
}

function header(name: string, summary: string, release: Release): string[] {
  const th = `.TH ${roff(name.toUpperCase())} 1 "${release.date}" "wsctl ${roff(release.version)}" "wsctl manual"`;
  return [
    `.\\" Generated from the command tree by \`npm run docs\`: edit the commands, not this file.`,
    th,
    '.\\" Flags and page names read badly hyphenated or stretched.',
    '.nh',
    '.ad l',
    '.SH NAME',
    `${roff(name)} \\- ${prose(summary)}`,
  ];
}

interface Page {
  path: string[];
  command: Command;
}

function commands(program: Command): Page[] {
  const pages: Page[] = [];
  const visit = (command: Command, path: string[]) => {
    for (const sub of visibleSubcommands(command)) {
      const next = [...path, sub.name()];
      pages.push({ path: next, command: sub });
      visit(sub, next);
    }
  };
  visit(program, []);
  return pages;
}

export const pageName = (path: string[]) => ['wsctl', ...path].join('-');

function optionRows(command: Command, which: 'own' | 'global'): [string, string][] {
  const help = command.createHelp();
  const options = which === 'own' ? help.visibleOptions(command) : help.visibleGlobalOptions(command);
  return options.map((o) => [help.optionTerm(o), help.optionDescription(o)]);
}

/** What DESCRIPTION says beyond NAME's summary: what the command sends to the service, or what a noun holds. */
function whatItDoes(command: Command, invocation: string): string {
  const described = describedOf(command);
  if (!described?.runs)
    return `The commands of \`${invocation}\` are listed below, each with a page of its own; \`${invocation} <command> --help\` shows the same in the terminal.`;
  const sent = described.endpoints ?? [];
  if (sent === 'any')
    return `\`${invocation}\` sends one request, to any path of the service, with the key of the profile in use (or to the embedded sandbox with \`--sandbox\`).`;
  if (sent.length === 0) return `\`${invocation}\` sends no request of its own to the service.`;
  const requests = sent
    .map((name) => `\`${endpoints[name as EndpointName].method} ${endpoints[name as EndpointName].path}\``)
    .join(' and ');
  return `\`${invocation}\` sends ${requests} to the service at the profile's base URL (or to the embedded sandbox with \`--sandbox\`). \`--json\` prints the service's JSON document; \`--dry-run\` shows the request instead of sending it.`;
}

function commandPage(page: Page, helpOf: (c: Command) => string, release: Release): string {
  const { command, path } = page;
  const help = command.createHelp();
  const name = pageName(path);
  const lines = [
    ...header(name, command.description(), release),
    '.SH SYNOPSIS',
    `\\fB${roff(`wsctl ${path.join(' ')}`)}\\fR ${roff(
      help
        .commandUsage(command)
        .split(' ')
        .slice(path.length + 1)
        .join(' '),
    )}`,
  ];
  lines.push('.SH DESCRIPTION', prose(whatItDoes(command, `wsctl ${path.join(' ')}`)), ...notesOf(command));
  const args = help.visibleArguments(command).map((a): [string, string] => [help.argumentTerm(a), help.argumentDescription(a)]);
  if (args.length > 0) lines.push('.SH ARGUMENTS', ...tagged(args));
  const subs = visibleSubcommands(command);
  if (subs.length > 0) {
    lines.push(
      '.SH COMMANDS',
      ...tagged(
        subs.map((s) => [[s.name(), ...s.aliases()].join('|'), `${s.description()}. See \`${pageName([...path, s.name()])}(1)\`.`]),
        (t) => bold(t),
      ),
    );
  }
  lines.push('.SH OPTIONS', ...tagged(optionRows(command, 'own')));
  const globals = optionRows(command, 'global').map(([t]) => t.split(',').at(-1)!.trim().split(' ')[0]!);
  lines.push(
    '.SH GLOBAL OPTIONS',
    prose(`The global options of \`wsctl(1)\` are accepted before or after the command: ${globals.map((g) => `\`${g}\``).join(', ')}.`),
  );
  lines.push(...exampleLines(examplesOf(command, helpOf)));
  const parent = path.length > 1 ? `\\fB${roff(pageName(path.slice(0, -1)))}\\fR(1), ` : '';
  lines.push('.SH SEE ALSO', `${parent}\\fBwsctl\\fR(1)`);
  return `${lines.join('\n')}\n`;
}

function mainPage(program: Command, helpOf: (c: Command) => string, release: Release): string {
  const lines = [...header('wsctl', program.description().replace(/\.$/, ''), release)];
  lines.push(
    '.SH SYNOPSIS',
    '\\fBwsctl\\fR [global options] \\fIcommand\\fR [\\fIsubcommand\\fR] [arguments] [options]',
    '.br',
    '\\fBwsctl help\\fR [\\fIcommand\\fR... | \\fItopic\\fR]',
  );
  lines.push(
    '.SH DESCRIPTION',
    prose(
      'wsctl administers a personal AI-assistant workspace through its HTTP API: API keys, conversations, capabilities, connections, devices, personas, websites and more. Human output on a terminal, tab-separated lines when piped, exactly one JSON document with `--json`, and exit codes to branch on. It ships with an embedded sandbox, a local implementation of the whole service: add `--sandbox` to any command to try it offline.',
    ),
    '.PP',
    prose(`Help topics: ${TOPICS.map((t) => `\`wsctl help ${t.name}\` (${t.summary})`).join(', ')}.`),
  );
  // Every command that runs: verbs, and nouns that run by themselves (`wsctl mcp`).
  const leaves = commands(program).filter((p) => visibleSubcommands(p.command).length === 0 || describedOf(p.command)?.runs);
  lines.push(
    '.SH COMMANDS',
    ...leaves.flatMap(({ path, command }) => {
      const args = command.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`)).join(' ');
      return [
        '.TP',
        `\\fB${roff(`wsctl ${path.join(' ')}`)}\\fR${args ? ` ${roff(args)}` : ''}`,
        prose(`${command.description()}. See \`${pageName(path)}(1)\`.`),
      ];
    }),
  );
  lines.push('.SH GLOBAL OPTIONS', prose('Accepted before or after the command.'), ...tagged(optionRows(program, 'own')));
  const environment = findTopic('environment')!;
  lines.push('.SH ENVIRONMENT', ...environment.intro.flatMap((p, i) => [...(i ? ['.PP'] : []), prose(p)]), ...tagged(environmentRows()));
  lines.push('.SH EXIT STATUS', ...tagged(EXIT_CODES.map(([c, m]) => [String(c), m])));
  lines.push(
    '.SH FILES',
    prose('The config dir is `WSCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/wsctl` or `~/.config/wsctl` on Linux.'),
    ...tagged(FILES),
  );
  lines.push(...exampleLines(examplesOf(program, helpOf)));
  lines.push('.SH SEE ALSO', leaves.map(({ path }) => `\\fB${roff(pageName(path))}\\fR(1)`).join(', '));
  return `${lines.join('\n')}\n`;
}

/** Every page, by file name under man/. */
export function manPages(program: Command, helpOf: (c: Command) => string, release: Release): Record<string, string> {
  const pages: Record<string, string> = { 'wsctl.1': mainPage(program, helpOf, release) };
  for (const page of commands(program)) pages[`${pageName(page.path)}.1`] = commandPage(page, helpOf, release);
  return pages;
}
