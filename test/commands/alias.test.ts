import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expand, splitWords } from '../../src/config/alias.js';
import { run, runBin, startSandbox, tempDir, type TestSandbox } from '../helpers.js';

describe('splitting an expansion like a shell', () => {
  it.each([
    ['keys list', ['keys', 'list']],
    [`keys create "my key" --save-as 'a b'`, ['keys', 'create', 'my key', '--save-as', 'a b']],
    ['a\\ b "c\\"d" \'e\\f\'', ['a b', 'c"d', 'e\\f']],
    ['  x   ""  y ', ['x', '', 'y']],
    ['echo $(rm -rf x) `id`', ['echo', '$(rm', '-rf', 'x)', '`id`']],
  ])('%s', (line, words) => {
    expect(splitWords(line)).toEqual(words);
  });
  it('an unterminated quote is exit 2', () => {
    expect(() => splitWords('keys "list')).toThrow('Unterminated');
  });
  it('$1, $2 take the arguments after the alias; the rest are appended', () => {
    expect(expand('device rm $1 --yes', ['dev_phone', '--json'])).toEqual(['device', 'rm', 'dev_phone', '--yes', '--json']);
    expect(expand('conn rm $2 $1', ['a', 'b', 'c'])).toEqual(['conn', 'rm', 'b', 'a', 'c']);
  });
});

describe('wsctl alias', () => {
  let sb: TestSandbox;
  let env: Record<string, string>;
  beforeEach(async () => {
    sb = await startSandbox();
    env = { ...sb.env, WSCTL_CONFIG_DIR: tempDir() };
  });
  const config = () => JSON.parse(readFileSync(join(env.WSCTL_CONFIG_DIR, 'config.json'), 'utf8'));

  it('set, list (--json) and rm keep aliases in config.json', async () => {
    expect((await run(['alias', 'set', 'ks', 'keys list'], { env })).code).toBe(0);
    const set = await run(['alias', 'set', 'rmdev', 'device rm $1 --yes', '--json'], { env });
    expect(JSON.parse(set.stdout)).toEqual({ name: 'rmdev', expansion: 'device rm $1 --yes' });
    expect(config().aliases).toEqual({ ks: 'keys list', rmdev: 'device rm $1 --yes' });
    const list = await run(['alias', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual({ aliases: { ks: 'keys list', rmdev: 'device rm $1 --yes' } });
    expect((await run(['alias', 'list'], { env })).stdout).toBe('ks\tkeys list\nrmdev\tdevice rm $1 --yes\n');
    const rm = await run(['alias', 'rm', 'ks', '--json'], { env });
    expect(JSON.parse(rm.stdout)).toEqual({ removed: 'ks' });
    expect(config().aliases).toEqual({ rmdev: 'device rm $1 --yes' });
    expect((await run(['alias', 'rm', 'ks'], { env })).code).toBe(2);
    const dry = await run(['alias', 'set', 'x', 'keys list', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(config().aliases).toEqual({ rmdev: 'device rm $1 --yes' });
  });

  it('a name that is a command or a help topic, or an unsplittable expansion, is refused (exit 2)', async () => {
    for (const name of ['keys', 'auth', 'help', 'alias', 'environment', 'exit-codes', 'config', '-x']) {
      const r = await run(['alias', 'set', name, 'keys list'], { env });
      expect(r.code, name).toBe(2);
    }
    expect((await run(['alias', 'set', 'k', 'keys "list'], { env })).code).toBe(2);
    expect((await run(['alias', 'set', 'k', '  '], { env })).code).toBe(2);
    expect((await run(['alias', 'list', '--json'], { env })).stdout).toContain('"aliases": {}');
  });

  it('runs the expansion: $1 takes the argument after the alias, the others are appended, global options stay options', async () => {
    await run(['alias', 'set', 'rmdev', 'device rm $1 --yes'], { env });
    const r = await run(['rmdev', 'dev_phone', '--json'], { env });
    expect(r.code).toBe(0);
    expect(sb.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/devices/dev_phone' });
    await run(['alias', 'set', 'ks', 'keys list'], { env });
    const appended = await run(['ks', '--jq', 'length'], { env });
    expect(appended.stderr).toBe('');
    expect(appended.code).toBe(0);
    expect(sb.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api-keys/' });
    const missing = await run(['rmdev'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("The alias 'rmdev' (device rm $1 --yes) needs argument $1");
  });

  it('--dry-run and --debug show the expansion on stderr; without them nothing is said', async () => {
    await run(['alias', 'set', 'rmdev', 'device rm $1 --yes'], { env });
    const dry = await run(['rmdev', 'dev_phone', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('alias rmdev: wsctl device rm dev_phone --yes --dry-run\n');
    expect(sb.requests).toHaveLength(0);
    const debug = await run(['--debug', 'rmdev', 'dev_phone'], { env });
    expect(debug.stderr).toContain('alias rmdev: wsctl --debug device rm dev_phone --yes\n');
    await run(['alias', 'set', 'ks', 'keys list'], { env });
    const quiet = await run(['ks'], { env });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('an alias is expanded once: an alias in an expansion is not expanded again', async () => {
    await run(['alias', 'set', 'ks', 'keys list'], { env });
    await run(['alias', 'set', 'again', 'ks'], { env });
    await run(['alias', 'set', 'loop', 'loop'], { env });
    const r = await run(['again'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'ks'");
    expect((await run(['loop'], { env })).code).toBe(2);
    expect(sb.requests).toHaveLength(0);
  });

  it('commands never read config.json for aliases: a broken config does not stop a command whose key and URL come from the environment', async () => {
    writeFileSync(join(env.WSCTL_CONFIG_DIR, 'config.json'), '{ broken');
    expect((await run(['keys', 'list'], { env })).code).toBe(0);
    // An unknown word with a broken config is just an unknown command.
    expect((await run(['nosuch'], { env })).stderr).toContain("unknown command 'nosuch'");
  });

  it('the built wsctl expands aliases and completes their names', async () => {
    expect((await runBin(['alias', 'set', 'ks', 'keys list'], { env })).code).toBe(0);
    const r = await runBin(['ks', '--dry-run'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('alias ks: wsctl keys list --dry-run\n');
    expect(r.stdout).toContain('/api-keys/');
    expect((await runBin(['__complete', 'aliases'], { env })).stdout).toBe('ks\n');
  });
});
