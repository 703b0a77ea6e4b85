// A streamed body (convo show) that quotes the key in use back prints it masked, as request()
// masks a whole body: the bytes change only inside the key. The key may arrive cut between two
// chunks, so the last key.length - 1 bytes of each chunk wait for the next.

/** The chunks with every whole occurrence of secret replaced by masked. */
export async function* maskedChunks(chunks: AsyncIterable<Buffer>, secret: string, masked: string): AsyncIterable<Buffer> {
  const needle = Buffer.from(secret);
  const replacement = Buffer.from(masked);
  const waits = needle.length - 1;
  let held: Buffer | undefined;
  for await (const chunk of chunks) {
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    // A match that starts past this point cannot be whole yet.
    let cut = Math.max(0, bytes.length - waits);
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = bytes.indexOf(needle); at >= 0 && at < cut; at = bytes.indexOf(needle, from)) {
      parts.push(bytes.subarray(from, at), replacement);
      from = at + needle.length;
    }
    cut = Math.max(cut, from);
    parts.push(bytes.subarray(from, cut));
    held = bytes.subarray(cut);
    const out = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (out.length > 0) yield out;
  }
  if (held && held.length > 0) yield held;
}
