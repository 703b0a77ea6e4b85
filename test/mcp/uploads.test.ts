// persona_upload_avatar's local files (cli.md §8): the file is opened once, before the person is
// asked, and every check is made on that open file; a path swapped for a symbolic link while the
// person reads the question changes nothing that is sent. A server started in / or in the home
// folder reads only from --upload-dir.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, startSandbox, tempDir, type TestSandbox } from '../helpers.js';
import { png } from '../images.js';
import { connect, texts, type Connected } from './harness.js';

/** The image a person approves, and another one, outside the folders, that a swap would send instead. */
const APPROVED = png(40);
const PASSPORT = png(900);

let sb: TestSandbox;
const open: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  sb = await startSandbox();
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** A server whose client runs `during` while the person would read the question, then accepts. */
async function server(options: Parameters<typeof connect>[0], during: () => void = () => {}) {
  const asked: ElicitRequest[] = [];
  const c: Connected = await connect(
    options,
    sb.env,
    {},
    {
      answer: (request): ElicitResult => {
        asked.push(request);
        during();
        return { action: 'accept', content: { confirm: true } };
      },
    },
  );
  open.push(c);
  return { ...c, asked };
}

/** The bytes of each image the sandbox received. */
function received(): Buffer[] {
  return Object.values(sb.state.uploads).map((u) => Buffer.from(u.data, 'base64'));
}

function question(asked: ElicitRequest[]): string {
  return (asked[0]!.params as { message: string }).message;
}

/** A folder the server reads from (work/avatar.png inside it) and one it does not (outside/avatar.png, outside/passport.png). */
function folders() {
  const dir = realpathSync(tempDir());
  const outside = realpathSync(tempDir());
  mkdirSync(join(dir, 'work'));
  writeFileSync(join(dir, 'work', 'avatar.png'), APPROVED);
  writeFileSync(join(outside, 'avatar.png'), PASSPORT);
  writeFileSync(join(outside, 'passport.png'), PASSPORT);
  return { dir, outside, file: join(dir, 'work', 'avatar.png') };
}

describe('the file is opened once, before the person is asked', () => {
  it('a file replaced by a link to a file outside while the person reads the question: the approved bytes are sent', async () => {
    const { dir, outside, file } = folders();
    const c = await server({ uploadDir: dir }, () => {
      rmSync(file);
      symlinkSync(join(outside, 'passport.png'), file);
    });
    const result = await c.client.callTool({ name: 'persona_upload_avatar', arguments: { file } });
    expect(result.isError, texts(result).join()).toBeFalsy();
    expect(c.asked).toHaveLength(1);
    // The question names the real path and the size of the file opened (its wording is confirm.test.ts's).
    expect(question(c.asked)).toContain(file);
    expect(question(c.asked)).toContain(`(${APPROVED.length} bytes)`);
    expect(received()).toEqual([APPROVED]);
  });

  it('a parent folder replaced by a link to a folder outside while the person reads the question: the approved bytes are sent', async () => {
    const { dir, outside, file } = folders();
    const c = await server({ uploadDir: dir }, () => {
      renameSync(join(dir, 'work'), join(dir, 'work-old'));
      symlinkSync(outside, join(dir, 'work'));
    });
    const result = await c.client.callTool({ name: 'persona_upload_avatar', arguments: { file } });
    expect(result.isError, texts(result).join()).toBeFalsy();
    expect(question(c.asked)).toContain(`(${APPROVED.length} bytes)`);
    expect(received()).toEqual([APPROVED]);
  });

  it('a file that fails a check is refused without asking anybody, and an outside one never says whether it exists', async () => {
    const { dir, outside } = folders();
    symlinkSync(join(outside, 'passport.png'), join(dir, 'link.png'));
    symlinkSync(join(outside, 'missing.png'), join(dir, 'dangling.png'));
    execFileSync('mkfifo', [join(dir, 'fifo.png')]);
    writeFileSync(join(dir, 'cut.png'), APPROVED.subarray(0, APPROVED.length - 12));
    writeFileSync(join(dir, 'notes.png'), 'not an image');
    const c = await server({ uploadDir: dir });
    const refusals: [string, string][] = [
      [join(outside, 'passport.png'), 'outside'],
      [join(outside, 'missing.png'), 'outside'],
      [join(dir, 'link.png'), 'outside'],
      [join(dir, 'dangling.png'), 'outside'],
      [join(dir, 'fifo.png'), `Error: ${join(dir, 'fifo.png')} is not a regular file. (exit code 2)`],
      [join(dir, 'work'), `Error: ${join(dir, 'work')} is not a regular file. (exit code 2)`],
      [join(dir, 'cut.png'), `Error: ${join(dir, 'cut.png')} is not a whole PNG image: the PNG has no IEND chunk. (exit code 2)`],
      [join(dir, 'notes.png'), `Error: ${join(dir, 'notes.png')} is not a PNG, JPEG, GIF or WebP image. (exit code 2)`],
    ];
    for (const [file, said] of refusals) {
      const result = await c.client.callTool({ name: 'persona_upload_avatar', arguments: { file } });
      expect(result.isError, file).toBe(true);
      expect(texts(result)[0], file).toBe(
        said === 'outside'
          ? `Error: '${file}' lies outside the folders this server reads files from (its working folder and --upload-dir). (exit code 2)`
          : said,
      );
    }
    expect(c.asked).toEqual([]);
    expect(sb.requests).toEqual([]);
  });
});

/** The built `wsctl mcp`, started by a client in `cwd` with HOME set, that accepts every question it is asked. */
async function spawned(cwd: string, home: string, args: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: home, WSCTL_RETRY_BASE_MS: '10', ...sb.env },
    stderr: 'pipe',
  });
  const asked: ElicitRequest[] = [];
  const client = new Client({ name: 'wsctl-uploads', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request);
    return { action: 'accept', content: { confirm: true } };
  });
  await client.connect(transport);
  open.push(client);
  const upload = async (file: string) => texts(await client.callTool({ name: 'persona_upload_avatar', arguments: { file } }))[0];
  return { asked, upload };
}

const READS_NO_FILE = (folder: string) =>
  `Error: This server reads no local file: its working folder is ${folder}, which confines nothing, and it was started without --upload-dir. Start it with --upload-dir <folder> to let it send the files in that folder. (exit code 2)`;

describe('a server started in / or in the home folder reads only from --upload-dir', () => {
  for (const [where, folder] of [
    ['/', 'the root folder'],
    ['the home folder', 'the home folder'],
  ] as const) {
    it(`in ${where}: without --upload-dir it reads no file and says why; with it, only that folder`, async () => {
      const home = realpathSync(tempDir());
      const cwd = where === '/' ? '/' : home;
      const pictures = join(home, 'pictures');
      mkdirSync(pictures);
      writeFileSync(join(home, 'ada.png'), APPROVED);
      writeFileSync(join(pictures, 'ada.png'), APPROVED);

      const plain = await spawned(cwd, home);
      // The same words for a file that is there and one that is not.
      for (const file of [join(home, 'ada.png'), join(home, 'missing.png'), 'ada.png'])
        expect(await plain.upload(file), file).toBe(READS_NO_FILE(folder));
      expect(plain.asked).toEqual([]);
      expect(sb.requests).toEqual([]);

      const given = await spawned(cwd, home, ['--upload-dir', pictures]);
      for (const file of [join(home, 'ada.png'), join(home, 'missing.png')])
        expect(await given.upload(file), file).toBe(
          `Error: '${file}' lies outside the folders this server reads files from (--upload-dir alone: its working folder is ${folder}, which confines nothing). (exit code 2)`,
        );
      expect(given.asked).toEqual([]);
      expect(sb.requests).toEqual([]);
      expect(await given.upload(join(pictures, 'ada.png'))).toMatch(/^\{"url":/);
      expect(given.asked).toHaveLength(1);
      expect(received()).toEqual([APPROVED]);
    });
  }
});
