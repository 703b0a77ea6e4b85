import { basename } from 'node:path';
import { filePart } from '../../http/index.js';
import { arg, call, defineVerb, type Call, type Ctx } from '../../verbs/declare.js';
import { readImage, type Image } from '../../common/images.js';
import { request } from '../../service.js';

export const uploadAvatar = defineVerb({
  name: 'upload-avatar',
  summary: 'Upload a PNG, JPEG, GIF or WebP image (at most 10 MiB) as a persona avatar; prints its URL',
  args: { file: arg('<file>', 'the image file') },
  examples: ['wsctl persona upload-avatar ./ada.png', "wsctl persona upload-avatar ./ada.png --jq '.url'"],
  endpoints: ['uploadPersonaImage'],
  sample: ['persona', 'upload-avatar', 'test/fixtures/avatar.png'],
  mcp: {
    note: 'file is a path on the machine that runs wsctl, inside its working folder (unless that is / or the home folder) or a folder the server was given with --upload-dir.',
    localFile: 'file',
    // A local file leaves the machine; the door names its real path and size.
    confirm: (opts) => ({ action: 'upload file', target: opts.file }),
  },
  run,
});

/** opened: the image the MCP door opened and checked before the person was asked (file is then its real path). */
export async function run(opts: { file: string; opened?: Image }, _ctx: Ctx): Promise<Call> {
  // Opened once: the bytes checked are the bytes sent, whatever happens to the file meanwhile.
  return upload(opts.opened ?? (await readImage(opts.file)), opts.file);
}

/** The upload of an image already read and checked (readImage). */
export async function upload(image: Image, path: string): Promise<Call> {
  const filename = basename(path);
  const part = await filePart('file', { bytes: image.bytes, path, filename, contentType: image.type });
  return call({
    request: request('uploadPersonaImage', { upload: part }),
    spinner: `Uploading ${filename}`,
    progress: () => (image.size > 0 ? `Uploading ${filename} ${Math.min(100, Math.round((part.sent() / image.size) * 100))}%` : undefined),
    answer: ({ body }) => ({ json: body, human: (out) => out.tsv([[body.url]]) }),
  });
}
