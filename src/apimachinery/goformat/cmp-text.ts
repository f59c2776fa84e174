// The text layer of go-cmp's report (report_text.go): lines, wrapped nodes and lists of
// records, collapsed to one line where they fit, else expanded with "  " / "- " / "+ " prefixes,
// a tab per level, keys and comments aligned.
// Counterpart of github.com/google/go-cmp/cmp/report_text.go.

// ---- text nodes ---------------------------------------------------------------------------------

export type DiffMode = '' | ' ' | '-' | '+';

export interface Stats { name: string; identical: number; removed: number; inserted: number; modified: number }

function statsText(s: Stats): string {
  const parts: string[] = [];
  const counts: [number, string][] = [[s.identical, 'identical'], [s.removed, 'removed'], [s.inserted, 'inserted'], [s.modified, 'modified']];
  let sum = 0;
  for (const [n, label] of counts) {
    if (n > 0) parts.push(`${n} ${label}`);
    sum += n;
  }
  let name = s.name;
  if (sum > 1) name = name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s`;
  if (parts.length === 0) return '';
  if (parts.length <= 2) return `${parts.join(' and ')} ${name}`;
  return `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1] ?? ''} ${name}`;
}

export class Line { constructor(readonly text: string) {} }
export class Wrap { constructor(readonly prefix: string, public value: TextNode, readonly suffix: string) {} }
export interface TextRecord { diff: DiffMode; key: string; value: TextNode; elideComma?: boolean; comment?: Stats }
export class List { constructor(readonly records: TextRecord[]) {} }
export type TextNode = Line | Wrap | List;

export const NIL = new Line('nil');
export const ELLIPSIS = new Line('...');

export function nodeEqual(a: TextNode, b: TextNode): boolean {
  if (a instanceof Line) return b instanceof Line && a.text === b.text;
  if (a instanceof Wrap) return b instanceof Wrap && a.prefix === b.prefix && a.suffix === b.suffix && nodeEqual(a.value, b.value);
  if (!(b instanceof List) || a.records.length !== b.records.length) return false;
  return a.records.every((r, i) => {
    const o = b.records[i] as TextRecord;
    return r.diff === o.diff && r.key === o.key && nodeEqual(r.value, o.value) && (r.comment === undefined) === (o.comment === undefined);
  });
}

export function appendEllipsis(list: TextRecord[], stats?: Stats): void {
  const last = list[list.length - 1];
  if (last === undefined || !nodeEqual(last.value, ELLIPSIS)) {
    list.push({ diff: '', key: '', value: ELLIPSIS, elideComma: true, ...(stats !== undefined ? { comment: stats } : {}) });
    return;
  }
  if (stats !== undefined && last.comment !== undefined) {
    last.comment = { ...last.comment, identical: last.comment.identical + stats.identical, removed: last.comment.removed + stats.removed,
      inserted: last.comment.inserted + stats.inserted, modified: last.comment.modified + stats.modified };
  }
}

// ---- layout --------------------------------------------------------------------------------------

const MAX_COLUMN = 80;

export function indent(n: number, d: DiffMode): string {
  const prefix = d === '-' ? '- ' : d === '+' ? '+ ' : '  ';
  return prefix + '\t'.repeat(n);
}

/** The one-line form of a node, replacing the parts that fit on one line by lines. */
export function compact(node: TextNode, d: DiffMode): { text: string; node: TextNode } {
  if (node instanceof Line) return { text: node.text, node };
  if (node instanceof Wrap) {
    const inner = compact(node.value, d);
    const text = node.prefix + inner.text + node.suffix;
    return inner.node instanceof Line ? { text, node: new Line(text) } : { text, node: new Wrap(node.prefix, inner.node, node.suffix) };
  }
  let text = '';
  let multiLine = false;
  const records = node.records.map((r, i) => {
    if (r.diff === '-' || r.diff === '+') multiLine = true;
    text += r.key;
    if (r.key !== '') text += ': ';
    const inner = compact(r.value, r.diff === '' ? d : r.diff);
    text += inner.text;
    if (!(inner.node instanceof Line)) multiLine = true;
    if (r.comment !== undefined) multiLine = true;
    if (i < node.records.length - 1) text += ', ';
    return { ...r, value: inner.node };
  });
  if ((d === '-' || d === '+') && text.length > MAX_COLUMN) multiLine = true;
  return multiLine ? { text, node: new List(records) } : { text, node: new Line(text) };
}

function alignLens(records: readonly TextRecord[], skip: (r: TextRecord) => boolean, len: (r: TextRecord) => number): number[] {
  const lens = new Array<number>(records.length).fill(0);
  let start = 0;
  let end = 0;
  let max = 0;
  const close = (): void => { for (let j = start; j < end; j++) lens[j] = max - len(records[j] as TextRecord); };
  records.forEach((r, i) => {
    if (skip(r)) {
      close();
      start = i + 1; end = i + 1; max = 0;
    } else {
      max = Math.max(max, len(r));
      end = i + 1;
    }
  });
  close();
  return lens;
}

export function expand(node: TextNode, d: DiffMode, n: number): string {
  if (node instanceof Line) return node.text;
  if (node instanceof Wrap) return node.prefix + expand(node.value, d, n) + node.suffix;
  const recs = node.records;
  const keyPad = alignLens(recs, (r) => r.key === '' || !(r.value instanceof Line), (r) => r.key.length);
  const valuePad = alignLens(recs, (r) => !(r.value instanceof Line) || nodeEqual(r.value, ELLIPSIS) || r.comment === undefined,
    (r) => (r.value instanceof Line ? r.value.text.length : 0));
  const simple = recs.length > 0 && recs.every((r) => r.diff === '' && r.key === '' && r.value instanceof Line && r.comment === undefined);
  let b = '';
  if (simple) {
    let batch = '';
    const emit = (): void => {
      if (batch.length > 0) b += `\n${indent(n + 1, d)}${batch.replace(/ +$/, '')}`;
      batch = '';
    };
    for (const r of recs) {
      const line = (r.value as Line).text;
      if (batch.length + line.length + 2 > MAX_COLUMN) emit();
      batch += `${line}, `;
    }
    emit();
    return `${b}\n${indent(n, d)}`;
  }
  recs.forEach((r, i) => {
    const rd: DiffMode = r.diff === '' ? d : r.diff;
    b += `\n${indent(n + 1, rd)}`;
    if (r.key !== '') b += `${r.key}: `;
    b += ' '.repeat(keyPad[i] ?? 0);
    b += expand(r.value, rd, n + 1);
    if (r.elideComma !== true) b += ',';
    b += ' '.repeat(valuePad[i] ?? 0);
    if (r.comment !== undefined) b += ` // ${statsText(r.comment)}`;
  });
  return `${b}\n${indent(n, d)}`;
}

export function render(node: TextNode): string {
  return compact(node, '').text;
}
