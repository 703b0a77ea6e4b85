// The sandbox's seeded demo data, under the stable ids the README lists.
import { randomBytes } from 'node:crypto';
import { liveSeed } from './live.js';
import type { SandboxState, StoredConnection, StoredConversation, StoredKey } from './state.js';

export type { SandboxState, StoredConnection, StoredConversation, StoredKey };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** A key in the service's format: the fixed prefix "wsk_" and 40 random characters; a seeded one has a stable id. */
export function newKey(name: string, createdAt = new Date().toISOString(), id = `key_${randomId(12)}`): StoredKey {
  const key = `wsk_${randomId(40)}`;
  return { id, name, key, key_prefix: key.slice(0, 8), created_at: createdAt, last_used_at: null };
}

const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function demoConversation(): StoredConversation {
  const t0 = Date.now() - 26 * 3_600_000;
  const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
  const persona = { persona_id: 'persona_demo', persona_name: 'Ada', persona_image: 'https://sandbox.invalid/avatars/ada.png' };
  const model = 'claude-sonnet-4';
  return {
    conversation: {
      id: 'conv_demo',
      user_id: 'user_demo',
      host_id: 'host_demo',
      title: 'Plan the Lisbon team offsite',
      type: 'chat',
      created_at: at(0),
      updated_at: at(9),
      deleted_at: null,
      metadata: { channel: 'web', pinned: true },
    },
    state: 'idle',
    messages: [
      {
        kind: 'request',
        timestamp: at(0),
        ...persona,
        model_name: model,
        parts: [
          {
            part_kind: 'user-prompt',
            content: 'Find a venue in Lisbon for a 12-person offsite in March and check my calendar for the week of the 9th.',
            timestamp: at(0),
          },
        ],
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
      },
      {
        kind: 'response',
        timestamp: at(1),
        ...persona,
        model_name: model,
        parts: [
          { part_kind: 'text', content: "I'll look for venues and check your calendar.", timestamp: at(1) },
          {
            part_kind: 'tool-call',
            tool_name: 'search_venues',
            tool_call_id: 'call_1',
            args: '{"city":"Lisbon","capacity":12,"month":"2027-03"}',
            timestamp: at(1),
          },
          {
            part_kind: 'tool-call',
            tool_name: 'calendar_free_busy',
            tool_call_id: 'call_2',
            args: '{"from":"2027-03-08","to":"2027-03-14"}',
            timestamp: at(1),
          },
        ],
        input_tokens: 1840,
        output_tokens: 96,
        cache_read_tokens: 1200,
        cache_write_tokens: 640,
      },
      {
        kind: 'request',
        timestamp: at(2),
        ...persona,
        model_name: model,
        parts: [
          {
            part_kind: 'tool-return',
            tool_name: 'search_venues',
            tool_call_id: 'call_1',
            content:
              'LX Factory Loft: 20 seats, €1,900/day, available 9-13 March\nPalácio Chiado: 14 seats, €2,400/day, available 10-12 March\nCowork Marvila: 16 seats, €900/day, available all month',
            timestamp: at(2),
          },
          {
            part_kind: 'tool-return',
            tool_name: 'calendar_free_busy',
            tool_call_id: 'call_2',
            content: 'Busy: Mon 9 March 09:00-12:00 (board call). Free otherwise.',
            timestamp: at(2),
          },
        ],
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
      },
      {
        kind: 'response',
        timestamp: at(3),
        ...persona,
        model_name: model,
        parts: [
          {
            part_kind: 'text',
            content:
              'Three venues fit. Your calendar is free from Tuesday 10 March, so I suggest Palácio Chiado for 10-12 March: central, and within budget for three days. Shall I hold it and draft the invitation?',
            timestamp: at(3),
          },
        ],
        input_tokens: 2410,
        output_tokens: 142,
        cache_read_tokens: 1840,
        cache_write_tokens: 0,
      },
      {
        kind: 'request',
        timestamp: at(8),
        ...persona,
        model_name: model,
        parts: [{ part_kind: 'user-prompt', content: 'Yes, hold it and draft the invitation.', timestamp: at(8) }],
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
      },
      {
        kind: 'response',
        timestamp: at(9),
        ...persona,
        model_name: model,
        parts: [
          {
            part_kind: 'tool-call',
            tool_name: 'send_email',
            tool_call_id: 'call_3',
            args: '{"to":"events@palaciochiado.example","subject":"Hold request: 10-12 March, 12 people"}',
            timestamp: at(9),
          },
          {
            part_kind: 'text',
            content:
              'Done: I asked Palácio Chiado to hold 10-12 March. Draft invitation:\n\nSubject: Team offsite, Lisbon, 10-12 March\n\nHi all, we are meeting at Palácio Chiado from Tuesday 10 to Thursday 12 March. Travel details follow this week.',
            timestamp: at(9),
          },
        ],
        input_tokens: 2650,
        output_tokens: 188,
        cache_read_tokens: 2410,
        cache_write_tokens: 120,
        metadata: { finish_reason: 'stop' },
      },
    ],
  };
}

/** The seeded state; a reset keeps the bootstrap key so that running clients keep working. */
export function seedState(bootstrapKey?: string): SandboxState {
  // Stable ids, as every other seeded thing has: an example or a sample argv may name them.
  const bootstrap = newKey('sandbox', ago(720), 'key_sandbox');
  if (bootstrapKey) {
    bootstrap.key = bootstrapKey;
    bootstrap.key_prefix = bootstrapKey.slice(0, bootstrap.key_prefix.length);
  }
  const laptop = newKey('laptop', ago(240), 'key_laptop');
  laptop.last_used_at = ago(3);
  return {
    version: 1,
    bootstrap_key: bootstrap.key,
    keys: [bootstrap, laptop],
    conversations: { conv_demo: demoConversation(), conv_live: liveSeed() },
    numbers: [
      {
        phone: '+14155550123',
        name: 'Personal line',
        description: 'Texts from you reach the assistant',
        is_owner: true,
        conversation_id: 'conv_demo',
      },
      { phone: '+14155550188', name: 'Front desk', description: 'Answers visitors on your behalf', is_owner: false, conversation_id: null },
    ],
    addresses: ['ada@ws-demo.example', 'inbox@ws-demo.example'],
    prompts: [
      { path: 'prompts/daily-brief.md', title: 'Daily brief', description: 'A morning summary of calendar, mail and tasks' },
      { path: 'prompts/weekly-review.md', title: 'Weekly review', description: 'What moved this week and what is stuck' },
    ],
    connections: [
      {
        app_slug: 'gmail',
        pd_conn_id: 'pdc_gmail',
        permission: 'read',
        account_identifier: 'alex@example.com',
        account_name: 'Alex Morgan',
      },
      { app_slug: 'notion', pd_conn_id: 'pdc_notion', permission: 'write', account_identifier: 'ws_7Qd2', account_name: 'Morgan Studio' },
    ],
    settings: {
      timezone: 'Europe/Lisbon',
      default_greeting_prompt: 'Greet the user by name and offer help with today.',
      icon: '🦊',
      language: 'en-GB',
      phone_number: '+14155550123',
      greeting_prompt: null,
      name: null,
      suggested_name: 'Alex',
      bio: 'Product designer; runs a small studio in Lisbon.',
    },
    byok: [],
    devices: [
      { id: 'dev_laptop', name: 'Alex’s MacBook', platform: 'macos', last_seen_at: ago(1) },
      { id: 'dev_phone', name: 'Pixel 9', platform: 'android', last_seen_at: ago(30) },
    ],
    personas: {
      persona_demo: {
        name: 'Ada',
        published: [
          { id: 'pv_demo_3', created_at: ago(12) },
          { id: 'pv_demo_2', created_at: ago(200) },
          { id: 'pv_demo_1', created_at: ago(700) },
        ],
      },
    },
    publications: [{ id: 'pub_demo', conversation_id: 'conv_demo', created_at: ago(20) }],
    websites: [{ name: 'portfolio', path: 'sites/portfolio', local_port: 4100, variant: 'blank', display_name: 'Portfolio' }],
    pages: { page_demo: { title: 'Offsite agenda' }, page_roadmap: { title: 'Roadmap 2027' } },
    imports: [],
    uploads: {},
  };
}
