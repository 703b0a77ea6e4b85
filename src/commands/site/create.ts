import type { Command } from 'commander';
import { examples, splitPath, type App, type Ctx, type Result } from '../../command.js';
import { websiteVariants } from '../../enums.js';
import { UsageError } from '../../errors.js';
import type { CreateWebsiteBody } from '../../schemas.js';
import { request } from '../../service.js';
import { clean, cleanLine } from '../../terminal/index.js';

export interface CreateOptions {
  name: string;
  variant?: string;
  parent?: string;
  force?: boolean;
  displayName?: string;
}

export function register(site: Command, app: App): void {
  site
    .command('create')
    .description('Create a website in the workspace')
    .argument('<name>', 'site name (lowercase letters, digits, -)')
    .addOption(site.createOption('--variant <variant>', 'starting template').choices(websiteVariants))
    .option('--parent <a/b>', 'folder to create it in, split on /')
    .option('--force', 'replace a site of the same name')
    .option('--display-name <text>', 'the name shown to visitors')
    .addHelpText('after', examples('wsctl site create launch --variant marketing', 'wsctl site create notes --parent blogs/2027 --variant blog --display-name "Field notes"', "wsctl site create launch --force --jq '.data.path'"))
    .action((name: string, flags: Omit<CreateOptions, 'name'>, command: Command) => app.run(command, { name, ...flags }, run));
}

export async function run(opts: CreateOptions, ctx: Ctx): Promise<Result> {
  if (opts.name.trim() === '') throw new UsageError('The site name must not be empty.');
  const body: CreateWebsiteBody = { name: opts.name };
  if (opts.variant !== undefined) body.variant = opts.variant as CreateWebsiteBody['variant'];
  if (opts.parent !== undefined) body.parent_path_parts = splitPath(opts.parent, '--parent');
  if (opts.force) body.force = true;
  if (opts.displayName !== undefined) body.display_name = opts.displayName;
  const api = await ctx.api();
  const { body: created } = await ctx.term.spin('Creating website', api.request(request('createWebsite', { body })));
  const { data, error } = created;
  // The service names its body field ("Pass force to replace it."); wsctl says its flag instead, once.
  const hint = error?.code === 'already_exists' && !opts.force;
  const message = hint ? error?.message?.replace(/\s*Pass force to replace it\.?\s*$/i, '') : error?.message;
  const failure = error || !data ? `${error?.code ?? 'unknown'} (${error?.kind ?? 'error'}): ${message ?? 'the service returned no data'}` : undefined;
  return {
    json: created,
    human(out) {
      if (!data || error) return;
      const fields: [string, string | number | null | undefined][] = [
        ['name', data.name],
        ['path', data.path],
        ['local_port', data.local_port],
      ];
      if (!out.tty) return out.detail([...fields, ['entrypoint_output', data.entrypoint_output]]);
      out.detail(fields);
      if (data.entrypoint_output) {
        out.line();
        out.heading('Entrypoint output:');
        out.line(clean(data.entrypoint_output).trimEnd());
      }
    },
    failure: failure && `Could not create site '${opts.name}': ${cleanLine(failure)}${hint ? ' Pass --force to replace it.' : ''}`,
  };
}
