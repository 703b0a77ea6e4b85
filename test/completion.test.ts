// Completion scripts: committed equal to generated, parse in each shell, and really complete
// in bash (COMP_WORDS harness), zsh (a real interactive shell in tmux) and fish (complete -C).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../src/commands/keys/index.js';
import { generatedFiles } from '../src/main.js';
import { BIN, ROOT, runBin, tempDir } from './helpers.js';
import { Terminal } from './terminal.js';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
// CI installs every shell; on a developer machine a missing one is skipped.
const needs = (tool: string) => (has(tool) || process.env.CI ? it : it.skip);

let env: Record<string, string>;
beforeAll(() => {
  const dir = tempDir();
  const shim = join(dir, 'bin');
  mkdirSync(shim);
  symlinkSync(BIN, join(shim, 'wsctl'));
  const config = join(dir, 'config');
  mkdirSync(config, { mode: 0o700 });
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({ profiles: { work: {}, staging: {}, personal: {} }, aliases: { kl: 'keys list', 'bad$(touch x)': 'keys list' } }),
  );
  env = { PATH: `${shim}:${process.env.PATH}`, HOME: dir, WSCTL_CONFIG_DIR: config, TERM: 'xterm' };
});

const script = (file: string) => join(ROOT, 'completions', file);

describe('generated files', () => {
  it('the committed completion scripts and README command list equal what the tree generates (npm run completions)', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const files = await generatedFiles(
      readme,
      readFileSync(join(ROOT, 'package.json'), 'utf8'),
      readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'),
    );
    for (const [file, text] of Object.entries(files)) expect(readFileSync(join(ROOT, file), 'utf8'), file).toBe(text);
  });

  it('wsctl completion <shell> prints the committed script; __complete lists profiles', async () => {
    const r = await runBin(['completion', 'bash']);
    expect(r.stdout).toBe(readFileSync(script('wsctl.bash'), 'utf8'));
    const profiles = await runBin(['__complete', 'profiles'], { env });
    expect(profiles.stdout.split('\n').filter(Boolean).sort()).toEqual(['personal', 'staging', 'work']);
    // Only names `alias set` accepts: nothing a shell could run reaches compgen.
    expect((await runBin(['__complete', 'aliases'], { env })).stdout).toBe('kl\n');
    expect((await runBin(['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('bash', () => {
  const complete = (line: string) => {
    const words = line.split(' ');
    const program = `source ${JSON.stringify(script('wsctl.bash'))}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _wsctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', program], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
  };

  it('parses', () => {
    execFileSync('bash', ['-n', script('wsctl.bash')]);
  });
  it('completes commands, subcommands, flags, enums, profiles and files', () => {
    expect(complete('wsctl ke')).toEqual(['keys']);
    // A noun's verbs by name, in the order declared (aliases are not offered).
    expect(complete('wsctl keys ')).toEqual(keys.verbs.map((v) => v.name));
    expect(keys.verbs.length).toBeGreaterThan(1);
    expect(complete('wsctl site create x --variant ')).toEqual(['blank', 'blog', 'event', 'slides', 'data', 'marketing']);
    expect(complete('wsctl byok add --format ')).toEqual(['openai', 'anthropic', 'groq']);
    expect(complete('wsctl --profile ').sort()).toEqual(['personal', 'staging', 'work']);
    expect(complete('wsctl profile use w')).toEqual(['work']);
    expect(complete('wsctl keys create --save')).toEqual(['--save-as']);
    expect(complete('wsctl --json conv')).toEqual(['convo']);
    expect(complete('wsctl completion ')).toEqual(['bash', 'zsh', 'fish']);
    // wsctl ids takes a kind or its verb; ids forget a kind.
    expect(complete('wsctl ids ').sort()).toEqual(['account', 'app', 'connection', 'conversation', 'forget', 'persona']);
    expect(complete('wsctl ids forget con')).toEqual(['conversation', 'connection']);
    // Aliases complete like commands, and only where commands do.
    expect(complete('wsctl k')).toEqual(['keys', 'kl']);
    expect(complete('wsctl --json k')).toEqual(['keys', 'kl']);
    expect(complete('wsctl keys k')).toEqual([]);
    expect(complete(`wsctl persona upload-avatar ${join(ROOT, 'test', 'fixtures', 'avatar.p')}`)).toEqual([
      join(ROOT, 'test', 'fixtures', 'avatar.png'),
    ]);
  });
});

describe('zsh', () => {
  needs('zsh')('parses', () => {
    execFileSync('zsh', ['-n', script('_wsctl')]);
  });

  needs('tmux')('completes in a real interactive zsh (tmux)', async () => {
    if (!has('zsh')) throw new Error('zsh is not installed');
    const term = new Terminal(env, ['zsh', '-f']);
    try {
      term.send(`fpath=(${join(ROOT, 'completions')} $fpath); autoload -U compinit; compinit -u; PS1='%% '`, 'Enter');
      term.send('wsctl ke', 'Tab');
      await term.waitFor(/^% wsctl keys *$/m);
      term.send('C-u', 'wsctl site create x --variant ', 'Tab');
      await term.waitFor(/blank +blog +data +event +marketing +slides/);
      term.send('C-u', 'clear', 'Enter');
      term.send('wsctl --profile ', 'Tab');
      await term.waitFor(/personal +staging +work/);
      term.send('C-u', 'clear', 'Enter');
      term.send('wsctl kl', 'Tab');
      await term.waitFor(/^% wsctl kl *$/m);
      term.send('C-u', 'clear', 'Enter');
      term.send('wsctl ids ', 'Tab');
      await term.waitFor(
        /forget[\s\S]*account +app +connection +conversation +persona|account +app +connection +conversation +persona[\s\S]*forget/,
      );
    } finally {
      term.close();
    }
  });
});

describe('fish', () => {
  needs('fish')('parses and completes', () => {
    execFileSync('fish', ['-n', script('wsctl.fish')]);
    const complete = (line: string) =>
      execFileSync('fish', ['-c', `source ${script('wsctl.fish')}; complete -C '${line}'`], { env, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(complete('wsctl ke')).toEqual(['keys']);
    expect(complete('wsctl site create x --variant ').sort()).toEqual(['blank', 'blog', 'data', 'event', 'marketing', 'slides']);
    expect(complete('wsctl --profile ').sort()).toEqual(['personal', 'staging', 'work']);
    expect(complete('wsctl k').sort()).toEqual(['keys', 'kl']);
    expect(complete('wsctl ids ').sort()).toEqual(['account', 'app', 'connection', 'conversation', 'forget', 'persona']);
  });
});
