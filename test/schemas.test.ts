// Request bodies have one schema each, used by the verbs to build them and by the sandbox to check
// them: a body the sandbox refuses gets the service's 422 wording, entry by entry.
import { describe, expect, it } from 'vitest';
import { ByokBody, CreateWebsiteBody, validationDetails } from '../src/schemas.js';
import { run, startSandbox } from './helpers.js';

describe('request body schemas', () => {
  it("the sandbox answers a body that fails the client's own schema with FastAPI-style details", async () => {
    const sb = await startSandbox();
    const r = await run(['api', '/byok/', '-X', 'POST', '--input', '-', '--json'], {
      env: sb.env,
      stdin: JSON.stringify({ name: ' ', base_url: 'ftp://x', format: 'gpt', model_id: 3 }),
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr).error.details).toEqual([
      { loc: ['body', 'name'], msg: 'String should have at least 1 character', type: 'string_too_short' },
      { loc: ['body', 'base_url'], msg: 'Input should be a valid URL', type: 'url_parsing' },
      { loc: ['body', 'api_key'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'format'], msg: "Input should be 'openai', 'anthropic' or 'groq'", type: 'enum' },
      { loc: ['body', 'model_id'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  it('maps every kind of issue, and a body that is not an object', () => {
    const site = CreateWebsiteBody().safeParse({ name: 'x', force: 'yes', parent_path_parts: [1] });
    expect(site.success).toBe(false);
    if (!site.success) {
      expect(validationDetails(site.error.issues, { name: 'x', force: 'yes', parent_path_parts: [1] })).toEqual([
        { loc: ['body', 'parent_path_parts', '0'], msg: 'Input should be a valid string', type: 'string_type' },
        { loc: ['body', 'force'], msg: 'Input should be a valid boolean', type: 'boolean_type' },
      ]);
    }
    const notObject = ByokBody().safeParse([1]);
    expect(notObject.success).toBe(false);
    if (!notObject.success)
      expect(validationDetails(notObject.error.issues, [1])).toEqual([
        { loc: ['body'], msg: 'Input should be a valid JSON object', type: 'model_attributes_type' },
      ]);
  });
});
