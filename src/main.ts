// The bundle's entry (dist/wsctl.cjs): bin/wsctl calls cli(argv), tests call main(argv, base),
// `npm run docs` calls generatedFiles(). The parts: shell.ts (the process), runner.ts (argv →
// a verb), report.ts (error → exit code and message), docs.ts (the generated files).
// Start-up imports only commander and the command tree; everything else loads when used.
export { cli } from './cli/process.js';
export { main, VERSION } from './cli/run.js';
export { generatedFiles } from './cli/docs.js';
