// A reader for the CSV dialect of Go's encoding/csv (RFC 4180, no comments, no lazy quotes,
// variable field counts), with its error messages, for kube's CSV credential files.

export class CSVParseError extends Error {
  override readonly name = 'CSVParseError';
  constructor(readonly startLine: number, readonly line: number, readonly column: number, readonly reason: string) {
    super(startLine !== line
      ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
      : `parse error on line ${line}, column ${column}: ${reason}`);
  }
}

const ERR_BARE_QUOTE = 'bare " in non-quoted-field';
const ERR_QUOTE = 'extraneous or missing " in quoted-field';

interface Line { readonly text: string; readonly newline: boolean; readonly number: number }

/** Lines without their terminator; \r\n counts as \n and a \r before end of input is dropped. */
function splitLines(input: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  let n = 0;
  while (start < input.length) {
    const nl = input.indexOf('\n', start);
    n++;
    if (nl < 0) {
      let text = input.slice(start);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      lines.push({ text, newline: false, number: n });
      break;
    }
    let text = input.slice(start, nl);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    lines.push({ text, newline: true, number: n });
    start = nl + 1;
  }
  return lines;
}

/** 1-based byte column of the character at `index` of `s`. */
const byteCol = (s: string, index: number): number => Buffer.byteLength(s.slice(0, index)) + 1;

/** All records of the input. Throws a CSVParseError with Go's message on a quoting error. */
export function readCSV(input: string): string[][] {
  const lines = splitLines(input);
  const records: string[][] = [];
  let li = 0;
  while (li < lines.length) {
    const first = lines[li];
    if (first === undefined) break;
    if (first.text === '') { li++; continue; }
    const startLine = first.number;
    const fields: string[] = [];
    let line = first;
    let pos = 0;
    li++;
    for (;;) {
      const text = line.text;
      if (text[pos] !== '"') {
        const comma = text.indexOf(',', pos);
        const field = comma >= 0 ? text.slice(pos, comma) : text.slice(pos);
        const q = field.indexOf('"');
        if (q >= 0) throw new CSVParseError(startLine, line.number, byteCol(text, pos + q), ERR_BARE_QUOTE);
        fields.push(field);
        if (comma >= 0) { pos = comma + 1; continue; }
        break;
      }
      // A quoted field, possibly spanning lines.
      let buf = '';
      pos++;
      let done = false;
      for (;;) {
        const cur = line.text;
        const q = cur.indexOf('"', pos);
        if (q >= 0) {
          buf += cur.slice(pos, q);
          pos = q + 1;
          const next = cur[pos];
          if (next === '"') { buf += '"'; pos++; continue; }
          if (next === ',') { pos++; fields.push(buf); break; }
          if (pos === cur.length) { fields.push(buf); done = true; break; }
          throw new CSVParseError(startLine, line.number, byteCol(cur, q), ERR_QUOTE);
        }
        buf += cur.slice(pos);
        const following = lines[li];
        if (!line.newline || following === undefined) {
          const column = byteCol(cur, cur.length) + (line.newline ? 1 : 0);
          throw new CSVParseError(startLine, line.number, column, ERR_QUOTE);
        }
        buf += '\n';
        line = following;
        li++;
        pos = 0;
      }
      if (done) break;
    }
    records.push(fields);
  }
  return records;
}
