// The target of a command from flags, environment and config, as a table: no files, no store.
import { describe, expect, it } from 'vitest';
import type { ConfigData } from '../../src/config/index.js';
import {
  envFlag,
  envNumber,
  resolveTarget,
  storeEntry,
  typedConfigDir,
  type ResolveInput,
  type Resolution,
} from '../../src/config/resolve.js';
import { UsageError } from '../../src/errors.js';

const DIR = '/home/u/proj/.wsctl';
const FOLDER = { typed: '.wsctl', path: DIR, real: DIR };
const config: ConfigData = {
  current_profile: 'work',
  profiles: {
    work: { base_url: 'https://work.example.com', key_storage: 'keyring' },
    old: { base_url: 'https://old.example.com', api_key: 'wsk_in_file_1' },
    bare: {},
  },
};

function input(flags: ResolveInput['flags'], env: Record<string, string> = {}, data: ConfigData | 'unread' = config): ResolveInput {
  return {
    flags,
    env,
    folder: FOLDER,
    config: () => {
      if (data === 'unread') throw new Error('config.json read');
      return data;
    },
  };
}

type Expected = Partial<Omit<Resolution, 'entry'>> & { service?: string };
const cases: [string, ResolveInput, Expected][] = [
  [
    'current profile, its URL, key in the store',
    input({}),
    { profile: 'work', baseUrl: 'https://work.example.com', baseUrlSource: 'profile', key: { source: 'keyring' }, service: `wsctl:${DIR}` },
  ],
  [
    '--profile beats WSCTL_PROFILE beats current',
    input({ profile: 'old' }, { WSCTL_PROFILE: 'bare' }),
    { profile: 'old', key: { source: 'file', key: 'wsk_in_file_1' } },
  ],
  ['WSCTL_PROFILE beats current', input({}, { WSCTL_PROFILE: 'bare' }), { profile: 'bare', baseUrl: undefined, key: { source: 'none' } }],
  ['no current profile: default', input({}, {}, { profiles: {} }), { profile: 'default', profileExists: false, key: { source: 'none' } }],
  [
    '--base-url beats WSCTL_BASE_URL beats profile',
    input({ baseUrl: 'https://flag' }, { WSCTL_BASE_URL: 'https://env' }),
    { baseUrl: 'https://flag', baseUrlSource: 'flag' },
  ],
  [
    'WSCTL_BASE_URL beats profile',
    input({}, { WSCTL_BASE_URL: 'https://env' }),
    { baseUrl: 'https://env', baseUrlSource: 'env', key: { source: 'elsewhere', storage: 'keyring', baseUrl: 'https://work.example.com' } },
  ],
  [
    'WSCTL_API_KEY beats a stored key',
    input({}, { WSCTL_API_KEY: 'wsk_from_env_2' }),
    { profile: 'work', baseUrl: 'https://work.example.com', key: { source: 'env', key: 'wsk_from_env_2' } },
  ],
  [
    'URL and key from env: config.json not read',
    input({ profile: 'ci' }, { WSCTL_BASE_URL: 'https://env', WSCTL_API_KEY: 'wsk_from_env_2' }, 'unread'),
    { profile: 'ci', baseUrl: 'https://env', key: { source: 'env', key: 'wsk_from_env_2' } },
  ],
  [
    '--sandbox ignores everything configured',
    input({ sandbox: true, baseUrl: 'https://flag' }, { WSCTL_API_KEY: 'x y' }, 'unread'),
    { sandbox: true, profile: 'sandbox', key: { source: 'sandbox' } },
  ],
  ['WSCTL_SANDBOX=true is the sandbox', input({}, { WSCTL_SANDBOX: 'true' }, 'unread'), { sandbox: true, key: { source: 'sandbox' } }],
  ['WSCTL_SANDBOX=off is not', input({}, { WSCTL_SANDBOX: 'off' }), { sandbox: false, profile: 'work' }],
  [
    'a profile named "constructor" is data',
    input({ profile: 'constructor' }),
    { profile: 'constructor', profileExists: false, key: { source: 'none' } },
  ],
  // A stored key goes only to the origin (scheme, host, port) it was stored with.
  [
    'WSCTL_BASE_URL of another host: the stored key is not used',
    input({}, { WSCTL_BASE_URL: 'https://evil.example.com' }),
    { baseUrl: 'https://evil.example.com', key: { source: 'elsewhere', storage: 'keyring', baseUrl: 'https://work.example.com' } },
  ],
  [
    '--base-url of another scheme: nor is a key in the file',
    input({ profile: 'old', baseUrl: 'http://old.example.com' }),
    { key: { source: 'elsewhere', storage: 'file', baseUrl: 'https://old.example.com' } },
  ],
  [
    'another port',
    input({ baseUrl: 'https://work.example.com:8443' }),
    { key: { source: 'elsewhere', storage: 'keyring', baseUrl: 'https://work.example.com' } },
  ],
  [
    'the same origin, another path, case and default port: the stored key',
    input({ baseUrl: 'https://WORK.example.com:443/v2/' }),
    { key: { source: 'keyring' } },
  ],
  [
    'WSCTL_API_KEY goes to any base URL',
    input({}, { WSCTL_BASE_URL: 'https://evil.example.com', WSCTL_API_KEY: 'wsk_from_env_2' }, 'unread'),
    { key: { source: 'env', key: 'wsk_from_env_2' } },
  ],
  ['a URL that does not parse is left to the URL check (exit 2)', input({ baseUrl: 'not a url' }), { key: { source: 'keyring' } }],
];

describe('resolveTarget', () => {
  it.each(cases)('%s', (_name, given, expected) => {
    const { service, ...rest } = expected;
    const r = resolveTarget(given);
    expect(r).toMatchObject(rest);
    if (service) expect(r.entry.service).toBe(service);
    expect(r.entry.account).toBe(r.profile);
  });

  it.each([
    ['WSCTL_SANDBOX', 'maybe'],
    ['WSCTL_API_KEY', 'wsk_with€_euro'],
    ['WSCTL_API_KEY', 'wsk_zero\u200bwidth'],
    ['WSCTL_API_KEY', 'wsk_trailing\r'],
  ])('%s=%j is exit 2 naming it', (name, value) => {
    expect(() => resolveTarget(input({}, { [name]: value }))).toThrow(UsageError);
    expect(() => resolveTarget(input({}, { [name]: value }))).toThrow(name);
  });
});

describe('storeEntry', () => {
  it('is named from the real path; the absolute spellings an earlier version used are legacy names, a relative one never', () => {
    const e = storeEntry({ typed: './link/', path: '/p/link', real: '/p/cfg' }, 'work');
    expect(e.service).toBe('wsctl:/p/cfg');
    expect(e.account).toBe('work');
    expect(e.legacy.sort()).toEqual(['wsctl:/p/cfg/', 'wsctl:/p/link', 'wsctl:/p/link/']);
    const typedAbsolute = storeEntry({ typed: '/p//cfg/', path: '/p/cfg', real: '/p/cfg' }, 'work');
    expect(typedAbsolute.legacy.sort()).toEqual(['wsctl:/p//cfg', 'wsctl:/p//cfg/', 'wsctl:/p/cfg/']);
  });

  it('two projects with the same relative folder get two entries', () => {
    const entry = (dir: string) => storeEntry({ typed: '.wsctl', path: dir, real: dir }, 'default');
    expect(entry('/a/.wsctl').service).not.toBe(entry('/b/.wsctl').service);
    expect([...entry('/a/.wsctl').legacy, ...entry('/b/.wsctl').legacy].filter((s) => !s.startsWith('wsctl:/'))).toEqual([]);
  });
});

describe('WSCTL_CONFIG_DIR', () => {
  it.each(['~', '~/.wsctl', '~user/cfg', '~\\cfg'])('%j (no shell expanded the ~) is exit 2 naming the variable', (value) => {
    expect(() => typedConfigDir({ WSCTL_CONFIG_DIR: value }, 'linux', '/home/u')).toThrow(UsageError);
    expect(() => typedConfigDir({ WSCTL_CONFIG_DIR: value }, 'linux', '/home/u')).toThrow(`Invalid WSCTL_CONFIG_DIR '${value}'`);
  });

  it('a ~ inside the path is a name like any other', () => {
    expect(typedConfigDir({ WSCTL_CONFIG_DIR: './~cfg' }, 'linux', '/home/u')).toBe('./~cfg');
  });
});

describe('boolean and numeric variables', () => {
  it.each([
    ['1', true],
    ['true', true],
    ['YES', true],
    ['On', true],
    [' on ', true],
    ['0', false],
    ['false', false],
    ['No', false],
    ['OFF', false],
    ['', false],
    [undefined, false],
  ])('%j is %s', (value, on) => {
    expect(envFlag(value === undefined ? {} : { WSCTL_DEBUG: value }, 'WSCTL_DEBUG')).toBe(on);
  });

  it.each(['2', 'y', 'enabled', 'true!'])('%j is exit 2 naming the variable and its values', (value) => {
    expect(() => envFlag({ WSCTL_NO_INPUT: value }, 'WSCTL_NO_INPUT')).toThrow(
      `Invalid WSCTL_NO_INPUT '${value}': use 1, true, yes or on to turn it on, or 0, false, no, off or empty to turn it off.`,
    );
  });

  it('numbers are whole and bounded', () => {
    expect(envNumber({ N: '8' }, 'N', 1, 256, 'MiB')).toBe(8);
    expect(envNumber({}, 'N', 1, 256, 'MiB')).toBeUndefined();
    for (const bad of ['abc', '1e12', '0', '257', '-1', '1.5'])
      expect(() => envNumber({ N: bad }, 'N', 1, 256, 'MiB')).toThrow(`Invalid N '${bad}'`);
  });
});
