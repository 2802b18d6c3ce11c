/**
 * Text a remote site chose (collection IDs, field keys and types, display names, error messages)
 * as the CLI writes it into a generated file or onto a terminal: every control character made
 * visible as an escape (`\u001b`), so none moves the cursor, rewrites the terminal's title, ends a
 * line of generated code, or flips the reading order of what follows (bidirectional overrides:
 * "Trojan Source"). Pure code: the console imports it with the generator.
 */

/** C0 and C1 controls, DEL, the Unicode line and paragraph separators, and bidirectional formatting. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but line feeds and tabs, which a terminal's text is made of. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b`: the escape JSON, TypeScript and JavaScript strings all read back as the character. */
const escaped = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character written as an escape: for a generated file's comments and keys. */
export const visibleControls = (text: string): string => text.replace(CONTROL, escaped);

/** `text` with every control character but line feeds and tabs written as an escape: for a terminal. */
export const terminalText = (text: string): string => text.replace(TERMINAL_CONTROL, escaped);
