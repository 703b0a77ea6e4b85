import { defineNoun, defineVerb } from '../../verbs/declare.js';
import { config } from './config.js';
import { install } from './install.js';
import { check, serverFlags } from './shared.js';
import { uninstall } from './uninstall.js';

export { describe, snake } from './shared.js';

export const mcp = defineNoun({
  name: 'mcp',
  summary: 'Serve the workspace to AI agents as MCP tools (Claude, Cursor, VS Code)',
  verbs: [config, install, uninstall],
  self: defineVerb({
    name: 'mcp',
    summary: 'Serve the workspace to AI agents as MCP tools over stdin/stdout (Model Context Protocol)',
    flags: serverFlags,
    examples: ['wsctl mcp --sandbox', 'wsctl mcp --read-only --profile work', 'wsctl mcp install --client claude-desktop'],
    endpoints: [],
    sample: ['mcp', '--read-only'],
    async run(flags, ctx, here) {
      check(flags, ctx);
      if (ctx.term.stdinIsTTY)
        ctx.term.info(
          'wsctl mcp speaks the Model Context Protocol on stdin and stdout, for an MCP client to start (see `wsctl mcp install`). Ctrl-C stops it.',
        );
      const { serve } = await import('../../mcp/mcp-server.js');
      await serve(flags, ctx, here.verbs);
    },
  }),
});
