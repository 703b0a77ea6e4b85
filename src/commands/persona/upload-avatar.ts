import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { filePart } from '../../http/index.js';
import { arg, call, defineVerb, type Call, type Ctx } from '../../command.js';
import { UsageError } from '../../errors.js';
import { sniffImageType } from '../../images.js';
import { request } from '../../service.js';

export const uploadAvatar = defineVerb({
  name: 'upload-avatar',
  summary: 'Upload a PNG, JPEG, GIF or WebP image as a persona avatar; prints its URL',
  args: { file: arg('<file>', 'the image file') },
  examples: ['wsctl persona upload-avatar ./ada.png', "wsctl persona upload-avatar ./ada.png --jq '.url'"],
  endpoints: ['uploadPersonaImage'],
  sample: ['persona', 'upload-avatar', 'test/fixtures/avatar.png'],
  mcp: {
    note: 'file is a path on the machine that runs wsctl, inside its working folder or a folder the server was given with --upload-dir.',
    localFile: 'file',
    // A local file leaves the machine; the door names its real path and size.
    confirm: (opts) => ({ action: 'upload file', target: opts.file }),
  },
  run,
});

async function inspect(file: string): Promise<{ size: number; contentType: string }> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new UsageError(`${file} is not a regular file.`);
    size = info.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}.`);
  }
  const head = Buffer.alloc(16);
  try {
    const handle = await open(file, 'r');
    await handle.read(head, 0, 16, 0).finally(() => handle.close());
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}.`);
  }
  const contentType = sniffImageType(head);
  if (!contentType) throw new UsageError(`${file} is not a PNG, JPEG, GIF or WebP image (judged by its first bytes).`);
  return { size, contentType };
}

export async function run(opts: { file: string }, _ctx: Ctx): Promise<Call> {
  const { size, contentType } = await inspect(opts.file);
  const filename = basename(opts.file);
  const upload = await filePart('file', { path: opts.file, filename, contentType, size });
  return call({
    request: request('uploadPersonaImage', { upload }),
    spinner: `Uploading ${filename}`,
    progress: () => (size > 0 ? `Uploading ${filename} ${Math.min(100, Math.round((upload.sent() / size) * 100))}%` : undefined),
    answer: ({ body }) => ({ json: body, human: (out) => out.tsv([[body.url]]) }),
  });
}
