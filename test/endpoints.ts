// For every endpoint of src/service.ts, the commands that call it, with arguments that make a valid
// request against the seeded sandbox (destructive ones without --yes: add it where a test sends).
// A Record over the endpoint names, so an endpoint without a command does not compile; the fault,
// hostile-text, dry-run and end-to-end matrices iterate it, and test/service.test.ts checks it
// against the command tree.
import { join } from 'node:path';
import { endpoints, type EndpointName } from '../src/service.js';
import { ROOT } from './helpers.js';

export const BYOK_ARGS = ['--name', 'x', '--provider-url', 'https://api.openai.com/v1', '--format', 'openai', '--model', 'gpt-4.1'];

export const samples: Record<EndpointName, string[][]> = {
  createKey: [['keys', 'create', 'ci']],
  listKeys: [['keys', 'list']],
  getConversation: [['convo', 'show', 'conv_demo', '--no-pager'], ['convo', 'show', 'conv_demo', '--follow']],
  getCapabilities: [['caps']],
  importNote: [['notes', 'import', 'page_demo']],
  getSettings: [['settings'], ['api', '/settings/']],
  setConnectionPermission: [['conn', 'set-permission', 'gmail', 'pdc_gmail', 'write']],
  addByok: [['byok', 'add', ...BYOK_ARGS]],
  removeDevice: [['device', 'rm', 'dev_laptop']],
  listPublishedVersions: [['persona', 'versions', 'persona_demo']],
  createWebsite: [['site', 'create', 'launch']],
  uploadPersonaImage: [['persona', 'upload-avatar', join(ROOT, 'test/fixtures/avatar.png')]],
  removeConnection: [['conn', 'rm', 'gmail', 'pdc_gmail']],
  removePublication: [['pub', 'rm', 'pub_demo']],
};

/** Commands that call no endpoint of the table (`api` calls any path: it is a sample above). */
export const LOCAL_COMMANDS = ['auth login', 'auth status', 'auth token', 'auth logout', 'profile list', 'profile use', 'profile rm', 'completion', 'sandbox serve', 'sandbox stop', 'sandbox reset', 'mcp config'];

export interface ServiceCall {
  endpoint: EndpointName;
  /** Arguments that send a valid request; --yes added to destructive ones. */
  args: string[];
}

/** Every sample, with --yes where the command would otherwise ask (the DELETEs). */
export function serviceCalls(options: { yes?: boolean } = {}): ServiceCall[] {
  return (Object.keys(samples) as EndpointName[]).flatMap((endpoint) =>
    samples[endpoint].map((args) => ({ endpoint, args: options.yes && endpoints[endpoint].method === 'DELETE' ? [...args, '--yes'] : args })),
  );
}
