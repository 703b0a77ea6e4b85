// Multipart bodies: one file part, streamed from disk, built afresh for each attempt, with a
// count of the bytes sent for progress.
import { createReadStream } from 'node:fs';
import { PassThrough, Transform } from 'node:stream';
import type { Upload } from './transport.js';

export interface FileUpload extends Upload {
  /** Bytes of the current attempt sent so far. */
  sent(): number;
}

export async function filePart(field: string, file: { path: string; filename: string; contentType: string; size: number }): Promise<FileUpload> {
  const { default: FormData } = await import('form-data');
  let sent = 0;
  return {
    describe: { [field]: `${file.path} (${file.contentType}, ${file.size} bytes)` },
    sent: () => sent,
    open() {
      sent = 0;
      const form = new FormData();
      form.append(field, createReadStream(file.path), { filename: file.filename, contentType: file.contentType, knownLength: file.size });
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
