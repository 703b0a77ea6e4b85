// The server's stdio transport: one JSON-RPC message per line. Every malformed line is answered
// (cli.md §8): -32700 for a line that is not JSON, -32600 for one that is not a JSON-RPC message,
// with `id: null` where the id cannot be read; a line longer than MAX_MESSAGE_BYTES is dropped
// unread and answered too. Stdout carries these answers and the server's messages, nothing else.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest protocol message taken: a longer line is answered with an error and dropped. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

type Id = string | number | null;

/** The id of a message that is not valid, when it has one a response may carry. */
function idOf(message: unknown): Id {
  const id = message && typeof message === 'object' && !Array.isArray(message) ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The id at the start of a line too long or too deep to parse, when it is there to read. */
function idAtHead(head: string): Id {
  const found = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,16})/.exec(head)?.[1];
  return found === undefined ? null : (JSON.parse(found) as Id);
}

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** stdin ended: the server finishes what it was asked, then stops. */
  onend?: () => void;
  private closed = false;

  /**
   * `answered`: the id of the `initialize` the launcher answered before the program loaded
   * (./early.ts): the server's own answer to it is left out, once.
   */
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly log: (line: string) => void,
    private answered?: string | number,
  ) {}

  async start(): Promise<void> {
    let pending: Buffer[] = [];
    let size = 0;
    let dropping = false;
    let head = '';
    this.input.on('data', (chunk: Buffer | string) => {
      let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      while (data.length > 0) {
        const newline = data.indexOf(10);
        const piece = newline < 0 ? data : data.subarray(0, newline);
        data = newline < 0 ? Buffer.alloc(0) : data.subarray(newline + 1);
        if (!dropping) {
          if (size === 0) head = '';
          if (head.length < 256) head += piece.subarray(0, 256).toString('utf8');
          if (size + piece.length > MAX_MESSAGE_BYTES) {
            dropping = true;
            pending = [];
          } else pending.push(piece);
          size += piece.length;
        }
        if (newline < 0) continue;
        if (dropping) {
          this.log(`a message longer than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB was dropped`);
          this.refuse(idAtHead(head), ErrorCode.InvalidRequest, `Message too large: the limit is ${MAX_MESSAGE_BYTES} bytes.`);
        } else this.line(Buffer.concat(pending).toString('utf8'), head);
        pending = [];
        size = 0;
        dropping = false;
      }
    });
    this.input.on('end', () => this.onend?.());
    this.input.on('error', (error) => this.onerror?.(error));
  }

  private line(text: string, head: string): void {
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // A line nested too deep for the parser is JSON all the same: not a request wsctl can read.
      if (error instanceof SyntaxError) return this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON.');
      return this.refuse(idAtHead(head), ErrorCode.InvalidRequest, 'Invalid request: the message is nested too deep to read.');
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success)
      return this.refuse(idOf(parsed), ErrorCode.InvalidRequest, 'Invalid request: not a JSON-RPC 2.0 request, notification or response.');
    this.onmessage?.(message.data);
  }

  private refuse(id: Id, code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): void {
    if (this.closed) return;
    this.output.write(`${JSON.stringify(message)}\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.answered !== undefined && !('method' in message) && 'id' in message && message.id === this.answered) {
      // The launcher's answer went out: the server's would be a second answer to the same request.
      this.answered = undefined;
      if (!('result' in message))
        this.log(`the launcher answered initialize, which the server refused: ${JSON.stringify(message).slice(0, 300)}`);
      return;
    }
    this.write(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.removeAllListeners('data');
    this.onclose?.();
  }
}
