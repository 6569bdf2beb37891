import { z } from 'zod';

// Control characters other than tab, newline and carriage return.
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;

export const codePointLength = (s: string) => [...s].length;

/**
 * A free-text field: NFC-normalised and trimmed, length counted in characters (code points),
 * refusing lone surrogates and control characters (line breaks only where `multiline`).
 */
export function text(opts: { min?: number; max: number; multiline?: boolean; label?: string }) {
  const { min = 0, max, multiline = false } = opts;
  return z
    .string({ error: 'must be a string' })
    .superRefine((value, ctx) => {
      if (!value.isWellFormed()) ctx.addIssue({ code: 'custom', message: 'contains an invalid unicode sequence (lone surrogate)' });
    })
    .transform((value) => (value.isWellFormed() ? value.normalize('NFC').trim() : value))
    .superRefine((value, ctx) => {
      const length = codePointLength(value);
      if (length < min) ctx.addIssue({ code: 'custom', message: min === 1 ? 'must not be empty' : `must be at least ${min} characters` });
      if (length > max) ctx.addIssue({ code: 'custom', message: `must be at most ${max} characters (got ${length})` });
      if (CONTROL_RE.test(value) || (!multiline && /[\r\n\t]/.test(value))) {
        ctx.addIssue({ code: 'custom', message: multiline ? 'must not contain control characters' : 'must be a single line without control characters' });
      }
    });
}
