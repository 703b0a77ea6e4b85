// Allowed values that both the command tree (for help and completion) and the schemas use.
// Plain arrays, so that declaring commands does not load zod.

export const byokFormats = ['openai', 'anthropic', 'groq'] as const;
export const websiteVariants = ['blank', 'blog', 'event', 'slides', 'data', 'marketing'] as const;
export const shells = ['bash', 'zsh', 'fish'] as const;
export const conversationStates = ['idle', 'running', 'stopping'] as const;
