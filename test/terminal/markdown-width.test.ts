// `convo show --markdown` on a sized terminal: prose, the tokens and totals lines fit the width;
// fenced code is left exactly as written; piped Markdown is not wrapped.
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, startSandbox, type TestSandbox } from '../helpers.js';
import { runPty, tooWide } from './pty.js';

/** The lines outside fenced code blocks, and the fenced blocks themselves. */
function split(text: string): { prose: string[]; fenced: string[] } {
  const prose: string[] = [];
  const fenced: string[] = [];
  let fence: string | undefined;
  let block: string[] = [];
  for (const line of text.split('\n')) {
    const marks = /^(`{3,})/.exec(line)?.[1];
    if (fence) {
      block.push(line);
      if (line.trim() === fence) {
        fenced.push(block.join('\n'));
        fence = undefined;
      }
    } else if (marks) {
      fence = marks;
      block = [line];
    } else prose.push(line);
  }
  return { prose, fenced };
}

describe('convo show --markdown on a terminal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });

  it.each([60, 80])('prose, tokens and totals fit %i columns; fenced code is unchanged', async (cols) => {
    const tty = await runPty(['convo', 'show', 'conv_demo', '--markdown', '--no-pager'], { cols, env: sb.env });
    expect(tty.code, tty.text).toBe(0);
    const piped = await runBin(['convo', 'show', 'conv_demo', '--markdown'], { env: sb.env });
    expect(piped.code).toBe(0);
    const shown = split(tty.text.replace(/\r/g, ''));
    expect(tooWide(shown.prose.join('\n'), cols), tty.text).toEqual([]);
    expect(tty.text).toMatch(/^_Tokens: /m);
    expect(tty.text).toMatch(/^\*\*Totals:\*\* /m);
    expect(tty.text.replace(/\s+/g, ' ')).toContain('(6 messages)');
    expect(shown.fenced).toEqual(split(piped.stdout).fenced);
    // The same words in the same order: only line breaks differ.
    expect(shown.prose.join(' ').replace(/\s+/g, ' ').trim()).toBe(split(piped.stdout).prose.join(' ').replace(/\s+/g, ' ').trim());
    // Piped Markdown keeps its long lines.
    expect(piped.stdout).toMatch(/^\*\*Totals:\*\* .*\(6 messages\)$/m);
    expect(tooWide(piped.stdout, cols).length).toBeGreaterThan(0);
  });
});
