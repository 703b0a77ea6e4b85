// Multipart bodies: one file part, from the bytes that were read and checked (never the file
// again: what was checked is what is sent), streamed in pieces for each attempt, with a count of
// the bytes sent for progress.
import { PassThrough, Readable, Transform } from 'node:stream';
import type { Upload } from './transport.js';

export interface FileUpload extends Upload {
  /** Bytes of the current attempt sent so far. */
  sent(): number;
}

const PIECE = 64 * 1024;

function* pieces(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
}

/** A part named field holding bytes; `path` only names the file in --dry-run. */
export async function filePart(
  field: string,
  file: { bytes: Buffer; path: string; filename: string; contentType: string },
): Promise<FileUpload> {
  const { default: FormData } = await import('form-data');
  let sent = 0;
  const size = file.bytes.length;
  return {
    describe: { [field]: `${file.path} (${file.contentType}, ${size} bytes)` },
    sent: () => sent,
    open() {
      sent = 0;
      const form = new FormData();
      form.append(field, Readable.from(pieces(file.bytes), { objectMode: false }), {
        filename: file.filename,
        contentType: file.contentType,
        knownLength: size,
      });
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent += chunk.length;
          done(null, chunk);
        },
      });
      const stream = new PassThrough();
      form.pipe(counter).pipe(stream);
      return { stream, headers: { ...form.getHeaders(), 'content-length': String(form.getLengthSync()) } };
    },
  };
}
