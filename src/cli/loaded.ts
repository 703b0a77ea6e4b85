// The half of wsctl that loads once a command runs: every command and what they share, as one
// module (one load instead of a dozen small ones). Heavy libraries (undici, ora, form-data,
// chalk, the jq engine) still load only where used.
export { expandArgv, readAliases, shown } from '../config/alias.js';
export { COMPLETION_FILES, completionScript } from '../completion/index.js';
export { createCtx } from './context.js';
export { CancelledError, InterruptedError, REASONS, reasonOfCode, UsageError, WsctlError } from '../errors.js';
export { nextCommands } from './next.js';
export { detectAgent } from '../common/agent.js';
export { clean, displayWidth, terminalWidth } from '../terminal/index.js';
export { wrapWords } from '../terminal/words.js';
export { cleanErrorMessage } from '../common/sanitize.js';
export { maskSecrets, maskSecretsIn } from '../common/secrets.js';
export { terminalPrompt } from '../terminal/prompt.js';
export { commandReference, replaceReference } from '../help/reference.js';
export { answerHelp, suggestCommand } from '../help/index.js';
export { printHelpDocument } from './help-json.js';
export { closest } from '../help/suggest.js';
export { manPages } from '../help/man.js';
export { describedOf } from '../common/visible.js';
export { serverJson } from '../help/server-json.js';
export { exitCodeTable, replaceSection, settingsTable } from '../help/render.js';
export { addNoun } from '../verbs/invoke.js';
export { alias } from '../commands/alias/index.js';
export { api } from '../commands/api.js';
export { auth } from '../commands/auth/index.js';
export { byok } from '../commands/byok/index.js';
export { caps } from '../commands/caps.js';
export { complete } from '../commands/complete.js';
export { completion } from '../commands/completion.js';
export { conn } from '../commands/conn/index.js';
export { convo } from '../commands/convo/index.js';
export { device } from '../commands/device/index.js';
export { ids } from '../commands/ids/index.js';
export { keys } from '../commands/keys/index.js';
export { mcp } from '../commands/mcp/index.js';
export { notes } from '../commands/notes/index.js';
export { persona } from '../commands/persona/index.js';
export { profile } from '../commands/profile/index.js';
export { pub } from '../commands/pub/index.js';
export { sandbox } from '../commands/sandbox/index.js';
export { settings } from '../commands/settings.js';
export { site } from '../commands/site/index.js';
export { skill } from '../commands/skill/index.js';
export { skillText } from '../commands/skill/shared.js';
/** The MCP tools of the declared verbs (README's table); loaded only when asked. */
export const mcpToolsOf = async (verbs: Parameters<typeof import('../mcp/tools.js').toolsOf>[0]) =>
  (await import('../mcp/tools.js')).toolsOf(verbs);
