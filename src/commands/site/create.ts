import { arg, call, defineVerb, flag, nonEmpty, option, splitPath, type Call, type Ctx, type Result } from '../../verbs/declare.js';
import { websiteVariants } from '../../enums.js';
import type { CreateWebsiteBody, Response } from '../../schemas.js';
import { request } from '../../service.js';
import { clean, cleanLine } from '../../terminal/index.js';

export interface CreateOptions {
  name: string;
  variant?: (typeof websiteVariants)[number];
  /** Folder names, in order. */
  parent?: string[];
  force?: boolean;
  displayName?: string;
}

export const create = defineVerb({
  name: 'create',
  summary: 'Create a website in the workspace',
  args: { name: arg('<name>', 'site name (lowercase letters, digits, -)', nonEmpty('The site name must not be empty.')) },
  flags: {
    variant: option('--variant <variant>', 'starting template', websiteVariants),
    parent: option('--parent <a/b>', 'folder to create it in, split on /', splitPath),
    force: flag('--force', 'replace a site of the same name'),
    displayName: option('--display-name <text>', 'the name shown to visitors'),
  },
  examples: [
    'wsctl site create launch --variant marketing',
    'wsctl site create notes --parent blogs/2027 --variant blog --display-name "Field notes"',
    "wsctl site create launch --force --jq '.data.path'",
  ],
  endpoints: ['createWebsite'],
  sample: ['site', 'create', 'launch'],
  run,
});

export async function run(opts: CreateOptions, _ctx: Ctx): Promise<Call> {
  const body: CreateWebsiteBody = { name: opts.name };
  if (opts.variant !== undefined) body.variant = opts.variant;
  if (opts.parent !== undefined) body.parent_path_parts = opts.parent;
  if (opts.force) body.force = true;
  if (opts.displayName !== undefined) body.display_name = opts.displayName;
  return call({
    request: request('createWebsite', { body }),
    spinner: 'Creating website',
    answer: ({ body: created }) => shown(opts, created),
  });
}

function shown(opts: CreateOptions, created: Response<'WebsiteCreated'>): Result {
  const { data, error } = created;
  // The service names its body field ("Pass force to replace it."); wsctl says its flag instead, once.
  const hint = error?.code === 'already_exists' && !opts.force;
  const message = hint ? error?.message?.replace(/\s*Pass force to replace it\.?\s*$/i, '') : error?.message;
  const failure =
    error || !data ? `${error?.code ?? 'unknown'} (${error?.kind ?? 'error'}): ${message ?? 'the service returned no data'}` : undefined;
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
