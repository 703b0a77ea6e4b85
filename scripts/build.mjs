// Bundles src/ into dist/ with esbuild: one small entry chunk (commander and the command tree)
// and lazily loaded chunks for everything a command needs only when it runs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { wsctl: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __WSCTL_VERSION__: JSON.stringify(version) },
  // CommonJS dependencies (cli-table3, form-data) call require(); give ESM chunks one.
  banner: { js: "import { createRequire as __wsctlRequire } from 'node:module'; const require = __wsctlRequire(import.meta.url);" },
  logLevel: 'warning',
});
