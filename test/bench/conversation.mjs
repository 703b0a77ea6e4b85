// A large conversation for the benchmark: n messages of realistic shape (text, tool calls with
// JSON arguments, tool results), about 0.9 KB each, so 55,000 make about 50 MB.
export function largeConversation(id, n) {
  const t0 = Date.parse('2026-01-05T09:00:00Z');
  const at = (i) => new Date(t0 + i * 7000).toISOString();
  const persona = {
    persona_id: 'persona_demo',
    persona_name: 'Ada',
    persona_image: 'https://sandbox.invalid/avatars/ada.png',
    model_name: 'claude-sonnet-4',
  };
  const words =
    'the venue schedule budget invoice draft meeting travel agenda review notes follow up with the team about the offsite in Lisbon next March'.split(
      ' ',
    );
  const sentence = (i, len) => Array.from({ length: len }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  const messages = [];
  for (let i = 0; i < n; i++) {
    const request = i % 2 === 0;
    const parts = [];
    if (request && i % 10 === 4) {
      parts.push({
        part_kind: 'tool-return',
        tool_name: 'search_docs',
        tool_call_id: `call_${i - 1}`,
        content: `${sentence(i, 40)}.\n${sentence(i + 1, 40)}.`,
        timestamp: at(i),
      });
    } else if (request) {
      parts.push({ part_kind: 'user-prompt', content: `${sentence(i, 60)}?`, timestamp: at(i) });
    } else {
      parts.push({ part_kind: 'text', content: `${sentence(i, 80)}.`, timestamp: at(i) });
      if (i % 10 === 3)
        parts.push({
          part_kind: 'tool-call',
          tool_name: 'search_docs',
          tool_call_id: `call_${i}`,
          args: JSON.stringify({ query: sentence(i, 5), limit: 5 }),
          timestamp: at(i),
        });
    }
    messages.push({
      kind: request ? 'request' : 'response',
      timestamp: at(i),
      ...persona,
      parts,
      input_tokens: request ? 0 : 1200 + (i % 500),
      output_tokens: request ? 0 : 80 + (i % 90),
      cache_read_tokens: request ? 0 : 900,
      cache_write_tokens: request ? 0 : i % 3 === 0 ? 120 : 0,
    });
  }
  const conversation = {
    id,
    user_id: 'user_demo',
    host_id: 'host_demo',
    title: 'A long-running planning thread',
    type: 'chat',
    created_at: at(0),
    updated_at: at(n - 1),
    deleted_at: null,
    metadata: {},
  };
  // The interface's order: the state after the messages (the header waits for it).
  return { conversation, messages, state: 'idle' };
}
