// What the paths beside a command's run take, as one module: aliases, help topics and
// `help --json`, usage and error reports, prompts, and the generated docs. A command's run takes
// its own modules (./door.ts), so that it neither loads these nor keeps their code in its code
// cache; each noun's commands load with it (./program.ts).
export { expandArgv, readAliases, shown } from '../config/alias.js';
export { COMPLETION_FILES, completionScript } from '../completion/index.js';
export { CancelledError, InterruptedError, reasonOfCode, UsageError, WsctlError } from '../errors.js';
export { nextCommands } from './next.js';
export { detectAgent } from '../common/agent.js';
export { displayWidth, terminalWidth } from '../terminal/index.js';
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
export { skillText } from '../commands/skill/shared.js';
/** The MCP tools of the declared verbs (README's table); loaded only when asked. */
export const mcpToolsOf = async (verbs: Parameters<typeof import('../mcp/tools.js').toolsOf>[0]) =>
  (await import('../mcp/tools.js')).toolsOf(verbs);
