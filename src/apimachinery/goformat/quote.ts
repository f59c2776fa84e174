// Go's strconv.Quote and encoding/json's quoteChar, so that messages quoting user input read
// exactly as kube-apiserver's.

const SIMPLE_ESCAPES: Readonly<Record<number, string>> = {
  0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\',
};

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** Whether Go's unicode.IsPrint would accept the code point (close approximation for BMP and beyond). */
function isPrint(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0xad) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (cp === 0xfffe || cp === 0xffff) return false;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(String.fromCodePoint(cp));
}

function escapeRune(cp: number, quote: number): string {
  if (cp === quote) return `\\${String.fromCharCode(quote)}`;
  const simple = SIMPLE_ESCAPES[cp];
  if (simple !== undefined) return simple;
  if (isPrint(cp)) return String.fromCodePoint(cp);
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/** strconv.Quote: a double-quoted Go string literal. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    // A lone surrogate is invalid UTF-8 in Go; it becomes the replacement character.
    out += cp >= 0xd800 && cp <= 0xdfff ? '\\ufffd' : escapeRune(cp, 0x22);
  }
  return `${out}"`;
}

/** The first byte of the UTF-8 encoding of the character at s[i] (Go's scanner works on bytes). */
export function firstUtf8Byte(s: string, i: number): number {
  const cp = s.codePointAt(i) ?? 0;
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xc0 | (cp >> 6);
  if (cp < 0x10000) return 0xe0 | (cp >> 12);
  return 0xf0 | (cp >> 18);
}

/** encoding/json quoteChar: how the scanner names an offending byte, e.g. 'x', '\'', '"', '\n'. */
export function quoteChar(byte: number): string {
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x22) return `'"'`;
  const q = goQuote(String.fromCharCode(byte));
  return `'${q.slice(1, -1)}'`;
}
