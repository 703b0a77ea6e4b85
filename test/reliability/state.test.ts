// Files on disk: corrupt ones are reported and left alone, concurrent writers lose nothing,
// and a writer killed mid-write leaves the previous file whole.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, runBin, startSandbox, tempDir } from '../helpers.js';

describe('config and sandbox state on disk', () => {
  it.each([
    ['config.json', '{"profiles": {"work": {"base_url": "https://a.example", "api_'],
    ['config.json', '[1, 2'],
    ['sandbox.json', '{"version": 1, "keys": ['],
    ['sandbox.json', ''],
  ])('a corrupt or truncated %s is reported with its path and left untouched', async (file, text) => {
    const dir = tempDir();
    const path = join(dir, file);
    writeFileSync(path, text, { mode: 0o600 });
    const args = file === 'config.json' ? ['keys', 'list', '--base-url', 'http://127.0.0.1:9'] : ['--sandbox', 'keys', 'list'];
    const r = await runBin(args, { env: { WSCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('20 concurrent `wsctl --sandbox keys create` all succeed and all 20 keys are listed', async () => {
    const env = { WSCTL_CONFIG_DIR: tempDir() };
    expect((await runBin(['--sandbox', 'keys', 'list'], { env })).code).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runBin(['--sandbox', 'keys', 'create', `parallel-${i}`], { env, timeoutMs: 60_000 })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse((await runBin(['--sandbox', 'keys', 'list', '--json'], { env })).stdout);
    const names = list.keys.map((k: { name: string }) => k.name).filter((n: string) => n.startsWith('parallel-'));
    expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `parallel-${i}`).sort());
  }, 120_000);

  it('kill -9 during writes leaves sandbox.json and config.json whole, and does not block the next run', async () => {
    const sb = await startSandbox();
    const dir = tempDir();
    for (let round = 0; round < 6; round++) {
      // One process writing the sandbox state, one writing the config, killed at a random moment.
      const writers = [
        spawn(process.execPath, [BIN, '--sandbox', 'keys', 'create', `k${round}`], {
          env: { PATH: process.env.PATH, WSCTL_CONFIG_DIR: dir },
        }),
        spawn(process.execPath, [BIN, 'keys', 'create', `c${round}`, '--save-as', `p${round}`], {
          env: { PATH: process.env.PATH, WSCTL_CONFIG_DIR: dir, WSCTL_BASE_URL: sb.url, WSCTL_API_KEY: sb.key },
        }),
      ];
      const closed = writers.map((w) => new Promise((resolve) => w.on('close', resolve)));
      await sleep(30 + Math.random() * 150);
      for (const w of writers) w.kill('SIGKILL');
      await Promise.all(closed);
      for (const file of ['sandbox.json', 'config.json']) {
        let text: string;
        try {
          text = readFileSync(join(dir, file), 'utf8');
        } catch {
          continue; // not written yet in this round
        }
        expect(() => JSON.parse(text), `${file} after round ${round}`).not.toThrow();
      }
    }
    // A lock whose holder was killed is taken over at once. One that blocked would hold the run for
    // the whole lock wait (60 s), and runBin kills a run long before that (20 s): it fails here.
    const after = await runBin(['--sandbox', 'keys', 'list'], { env: { WSCTL_CONFIG_DIR: dir } });
    expect(after.code, after.stderr).toBe(0);
  }, 60_000);
});
