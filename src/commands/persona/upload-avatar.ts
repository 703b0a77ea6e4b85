import { basename } from 'node:path';
import { filePart } from '../../http/index.js';
import { arg, call, defineVerb, type Call, type Ctx } from '../../command.js';
import { readImage } from '../../images.js';
import { request } from '../../service.js';

export const uploadAvatar = defineVerb({
  name: 'upload-avatar',
  summary: 'Upload a PNG, JPEG, GIF or WebP image (at most 10 MiB) as a persona avatar; prints its URL',
  args: { file: arg('<file>', 'the image file') },
  examples: ['wsctl persona upload-avatar ./ada.png', "wsctl persona upload-avatar ./ada.png --jq '.url'"],
  endpoints: ['uploadPersonaImage'],
  sample: ['persona', 'upload-avatar', 'test/fixtures/avatar.png'],
  run,
});

export async function run(opts: { file: string }, _ctx: Ctx): Promise<Call> {
  // Opened once: the bytes checked are the bytes sent, whatever happens to the file meanwhile.
  const { bytes, type, size } = await readImage(opts.file);
  const filename = basename(opts.file);
  const upload = await filePart('file', { bytes, path: opts.file, filename, contentType: type });
  return call({
    request: request('uploadPersonaImage', { upload }),
    spinner: `Uploading ${filename}`,
    progress: () => (size > 0 ? `Uploading ${filename} ${Math.min(100, Math.round((upload.sent() / size) * 100))}%` : undefined),
    answer: ({ body }) => ({ json: body, human: (out) => out.tsv([[body.url]]) }),
  });
}
