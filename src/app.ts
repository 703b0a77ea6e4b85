// The half of wsctl that loads once a command runs: every command and what they share, as one
// module (one load instead of a dozen small ones). Heavy libraries (undici, cli-table3, ora,
// form-data, conf, chalk) still load only where used.
export { COMPLETION_FILES, completionScript } from './completion/index.js';
export { createCtx } from './context.js';
export { CancelledError, InterruptedError, UsageError, WsctlError } from './errors.js';
export { clean } from './terminal/index.js';
export { cleanErrorMessage } from './terminal/sanitize.js';
export { terminalPrompt } from './terminal/prompt.js';
export { commandReference, replaceReference } from './reference.js';
export { register as api } from './commands/api.js';
export { register as auth } from './commands/auth/index.js';
export { register as byok } from './commands/byok/index.js';
export { register as caps } from './commands/caps.js';
export { register as complete } from './commands/complete.js';
export { register as completion } from './commands/completion.js';
export { register as conn } from './commands/conn/index.js';
export { register as convo } from './commands/convo/index.js';
export { register as device } from './commands/device/index.js';
export { register as keys } from './commands/keys/index.js';
export { register as notes } from './commands/notes/index.js';
export { register as persona } from './commands/persona/index.js';
export { register as profile } from './commands/profile/index.js';
export { register as pub } from './commands/pub/index.js';
export { register as sandbox } from './commands/sandbox/index.js';
export { register as settings } from './commands/settings.js';
export { register as site } from './commands/site/index.js';
