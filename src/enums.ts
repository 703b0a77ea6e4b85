// Allowed values that the command tree (for help and completion) and the sandbox both use.
// Plain arrays, so that declaring commands loads nothing else.

export const byokFormats = ['openai', 'anthropic', 'groq'] as const;
export const websiteVariants = ['blank', 'blog', 'event', 'slides', 'data', 'marketing'] as const;
export const shells = ['bash', 'zsh', 'fish'] as const;
/** Connection permissions: the interface samples `read`; the sandbox also knows `write` and `full`. */
export const connectionPermissions: readonly string[] = ['read', 'write', 'full'];
