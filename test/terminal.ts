// A real terminal for tests: a shell in tmux on its own server, so that it gets this test's
// environment; type keys, read the screen.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export class Terminal {
  private readonly name = `wsctl-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private readonly env: Record<string, string>,
    shell: string[] = ['bash', '--norc', '--noprofile'],
    size: { cols: number; rows: number } = { cols: 160, rows: 40 },
  ) {
    this.tmux('new-session', '-d', '-s', this.name, '-x', String(size.cols), '-y', String(size.rows), ...shell);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.name, ...args], { env: this.env, encoding: 'utf8' });
  }

  /** Keys as tmux send-keys takes them: text, or names such as Enter and Tab. */
  send(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.name, ...keys);
  }

  /** The visible screen; with escapes keeps colour codes. */
  screen(escapes = false): string {
    return this.tmux('capture-pane', '-t', this.name, '-p', ...(escapes ? ['-e'] : []));
  }

  async waitFor(pattern: RegExp, escapes = false, timeoutMs = 8000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen(escapes);
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never matched ${pattern}:\n${screen}`);
      await sleep(50);
    }
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
