// Once per run, in vitest's own process: removes the folder the workers shared (test/helpers.ts).
import { rmSync } from 'node:fs';

export default function setup(): () => void {
  return () => rmSync(process.env.WSCTL_TEST_SHARED as string, { recursive: true, force: true });
}
