// encoding/base64's StdEncoding.Decode as encoding/json applies it to a []byte field: the error a
// Go client gets for text that is not padded standard base64 ("illegal base64 data at input byte
// N", N the offset decodeQuantum reports). Newlines are skipped, as Go does.
const ALPHABET = /[A-Za-z0-9+/]/;
const isNewline = (c: string | undefined): boolean => c === '\n' || c === '\r';
const corrupt = (offset: number): string => `illegal base64 data at input byte ${offset}`;

/** The decode error of `s`, or undefined when it is valid padded standard base64. */
export function goBase64Error(s: string): string | undefined {
  let si = 0;
  while (si < s.length) {
    // one quantum of four symbols
    let j = 0;
    for (; j < 4; j++) {
      if (si === s.length) {
        if (j === 0) return undefined;
        return corrupt(si - j);
      }
      const c = s[si] ?? '';
      si++;
      if (ALPHABET.test(c)) continue;
      if (isNewline(c)) { j--; continue; }
      if (c !== '=') return corrupt(si - 1);
      if (j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < s.length && isNewline(s[si])) si++;
        if (si === s.length) return corrupt(s.length);
        if (s[si] !== '=') return corrupt(si - 1);
        si++;
      }
      while (si < s.length && isNewline(s[si])) si++;
      return si < s.length ? corrupt(si) : undefined;
    }
  }
  return undefined;
}
