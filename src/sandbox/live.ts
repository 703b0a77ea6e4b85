// conv_live: a conversation that is running when first read and gains a message about every
// second, the last one growing while it is written, then turns idle. Its clock starts at the
// first read and lives in the sandbox state, so separate --sandbox processes see one timeline;
// `sandbox reset` starts it over.
import type { SandboxState, StoredConversation } from './state.js';

export const LIVE_ID = 'conv_live';
const STEP_MS = 1000;

interface Scripted {
  kind: 'request' | 'response';
  parts: Record<string, unknown>[];
  tokens?: [number, number];
}

const SCRIPT: Scripted[] = [
  {
    kind: 'request',
    parts: [{ part_kind: 'user-prompt', content: 'Find a venue in Lisbon for 12 people on March 12, under 5,000 EUR, and hold it.' }],
  },
  {
    kind: 'response',
    parts: [
      { part_kind: 'text', content: 'I will search venues that fit 12 people on that date.' },
      {
        part_kind: 'tool-call',
        tool_name: 'search_venues',
        tool_call_id: 'call_live_1',
        args: '{"city": "Lisbon", "date": "2027-03-12", "people": 12, "max_eur": 5000}',
      },
    ],
    tokens: [1840, 96],
  },
  {
    kind: 'request',
    parts: [
      {
        part_kind: 'tool-return',
        tool_name: 'search_venues',
        tool_call_id: 'call_live_1',
        content: 'Casa do Largo: 12 seats, 3,900 EUR, free on 2027-03-12\nLX Atelier: 16 seats, 4,600 EUR, free on 2027-03-12',
      },
    ],
  },
  {
    kind: 'response',
    parts: [
      { part_kind: 'text', content: 'Casa do Largo fits and is cheaper. Placing a hold.' },
      {
        part_kind: 'tool-call',
        tool_name: 'hold_venue',
        tool_call_id: 'call_live_2',
        args: '{"venue": "Casa do Largo", "date": "2027-03-12"}',
      },
    ],
    tokens: [2210, 74],
  },
  {
    kind: 'request',
    parts: [
      { part_kind: 'tool-return', tool_name: 'hold_venue', tool_call_id: 'call_live_2', content: 'Hold H-2291 placed until 2027-01-15.' },
    ],
  },
  {
    kind: 'response',
    parts: [
      {
        part_kind: 'text',
        content:
          'Done: Casa do Largo is held for March 12 (hold H-2291, 3,900 EUR for 12 people) until January 15. Say the word and I will confirm it and send the deposit invoice to finance.',
      },
    ],
    tokens: [2480, 131],
  },
];

/** The stored record: what a first read would show, and a clock that the first read starts. */
export function liveSeed(): StoredConversation & { started_at: string | null } {
  const now = Date.now();
  return { ...liveView(now, now), started_at: null };
}

const persona = { persona_id: 'persona_demo', persona_name: 'Ada', persona_image: 'https://sandbox.invalid/avatars/ada.png' };

/** The conversation as it stands `elapsed` ms after its first read. */
export function liveView(startedAt: number, now: number): StoredConversation {
  const elapsed = Math.max(0, now - startedAt);
  const shown = Math.min(SCRIPT.length, Math.floor(elapsed / STEP_MS) + 1);
  const done = elapsed >= SCRIPT.length * STEP_MS;
  const at = (i: number) => new Date(startedAt + i * STEP_MS).toISOString();
  const messages = SCRIPT.slice(0, shown).map((m, i) => {
    const growing = !done && i === shown - 1 && m.kind === 'response';
    // The message being written: its text so far, longer at each poll.
    const fraction = growing ? Math.max(0.2, (elapsed - i * STEP_MS) / STEP_MS) : 1;
    const parts = m.parts
      .filter((p) => !growing || p.part_kind === 'text')
      .map((p) => ({
        ...p,
        ...(typeof p.content === 'string' ? { content: p.content.slice(0, Math.ceil(p.content.length * fraction)) } : {}),
        timestamp: at(i),
      }));
    return {
      kind: m.kind,
      parts,
      timestamp: at(i),
      ...(m.kind === 'response' ? { ...persona, model_name: 'claude-sonnet-4' } : {}),
      input_tokens: growing ? 0 : (m.tokens?.[0] ?? 0),
      output_tokens: growing ? 0 : (m.tokens?.[1] ?? 0),
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    };
  });
  return {
    conversation: {
      id: LIVE_ID,
      user_id: 'user_demo',
      host_id: 'host_demo',
      title: 'Book the offsite venue',
      type: 'chat',
      created_at: at(0),
      updated_at: at(shown - 1),
      deleted_at: null,
      metadata: {},
    },
    messages,
    state: done ? 'idle' : 'running',
  };
}

/** Starts the clock at the first read; returns when it started. */
export function liveStart(state: SandboxState): number {
  const live = state.conversations[LIVE_ID] as (StoredConversation & { started_at?: string | null }) | undefined;
  if (!live) return Date.now();
  live.started_at ??= new Date().toISOString();
  return Date.parse(live.started_at);
}
