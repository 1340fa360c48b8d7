// What the CLI writes to a terminal. Names, targets, module types and messages come from files, and a
// file can hold any character: raw control characters (ESC sequences that move the cursor, retitle the
// window or rewrite what is on screen, CR, BEL…) and bidirectional overrides (text shown in another order
// than it reads) would reach the terminal as commands. Each is shown as an escape instead: \x1b, \u202e.
// Newlines stay (the output's own line breaks).
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c, width) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `text` with every control character as an escape (\x1b; \u202e above 0xff); newlines kept. */
export function terminalText(text) {
  return String(text).replace(CONTROL, (c) => (c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * JSON text safe for a terminal: JSON.stringify already escapes U+0000–U+001F; this escapes the other
 * controls (DEL, C1, bidi overrides) as JSON's \u00XX, so the text still parses to the same value.
 */
export function terminalJson(value, space) {
  return JSON.stringify(value, null, space).replace(CONTROL, (c) => `\\u${hex(c, 4)}`);
}
