// An upper estimate of how deep a YAML document nests, read from its text in one pass without
// recursion. The yaml package composes and converts documents recursively; close to the end of
// the stack it reports RESOURCE_EXHAUSTION, but V8 may instead abort the whole process when a
// regular expression is compiled with the stack nearly used up. So a document that may nest
// deeper than kapi stores is refused before the yaml package sees it.
//
// Block collections are followed through their indentation (with "- " entries and "key:"
// mappings opening a level each), flow collections through their brackets (outside quotes and
// comments); block scalars are skipped. The estimate can be too high for odd documents (a
// quoted scalar spanning lines, holding brackets), never much too low for real ones; the
// decoded value's depth is checked again afterwards.
// Counterpart of the depth limit of sigs.k8s.io/yaml.

interface Level { readonly col: number; readonly kind: 'seq' | 'map' }

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === undefined || c === '\r';

/** Index of the first non-blank character at or after i on the line. */
function skipBlanks(line: string, i: number): number {
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/** Skips anchors (&a) and tags (!t) in front of a value. */
function skipProperties(line: string, i: number): number {
  while (line[i] === '&' || line[i] === '!') {
    while (i < line.length && !isBlank(line[i])) i++;
    i = skipBlanks(line, i);
  }
  return i;
}

/** The ': ' (or ':' at the end) of an implicit key in block context, outside quotes; -1 if none. */
function mappingColon(line: string, from: number): number {
  let quote = '';
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote !== '') { if (c === quote) quote = ''; continue; }
    if ((c === '"' || c === "'") && i === from) { quote = c; continue; }
    if (c === '#' && (i === from || isBlank(line[i - 1]))) return -1;
    if (c === ':' && isBlank(line[i + 1])) return i;
  }
  return -1;
}

/** Whether the rest of the line (a value) starts a block scalar: | or > with indicators. */
const blockScalar = (rest: string): boolean => /^[|>][-+0-9]*\s*(#.*)?$/.test(rest.trimEnd());

export function yamlNestingBound(text: string): number {
  const lines = text.split('\n');
  const stack: Level[] = [];
  let max = 0;
  let flow = 0; // open flow collections
  let quote = ''; // an open quoted scalar inside a flow collection
  let scalarIndent = -1; // lines indented more than this belong to a block scalar
  for (const line of lines) {
    let i = 0;
    if (flow === 0) {
      const indent = skipBlanks(line, 0);
      if (indent >= line.length || line[indent] === '#' || line[indent] === '\r') continue;
      if (scalarIndent >= 0) {
        if (indent > scalarIndent) continue;
        scalarIndent = -1;
      }
      while (stack.length > 0 && (stack[stack.length - 1] as Level).col > indent) stack.pop();
      i = indent;
      // "- - key: value": a sequence entry, and what it holds, each open a level.
      for (;;) {
        i = skipProperties(line, i);
        const top = stack[stack.length - 1];
        if (line[i] === '-' && isBlank(line[i + 1])) {
          if (top === undefined || top.col !== i || top.kind !== 'seq') stack.push({ col: i, kind: 'seq' });
          i = skipBlanks(line, i + 1);
          continue;
        }
        const colon = line[i] === '[' || line[i] === '{' ? -1 : mappingColon(line, i);
        if (colon >= 0) {
          // A key ends the indentless sequence of the previous key at the same column.
          while (stack.length > 0 && (stack[stack.length - 1] as Level).col === i && (stack[stack.length - 1] as Level).kind === 'seq') stack.pop();
          const t = stack[stack.length - 1];
          if (t === undefined || t.col !== i || t.kind !== 'map') stack.push({ col: i, kind: 'map' });
          i = skipProperties(line, skipBlanks(line, colon + 1));
        }
        break;
      }
      max = Math.max(max, stack.length);
      if (blockScalar(line.slice(i))) { scalarIndent = indent; continue; }
      if (line[i] !== '[' && line[i] !== '{') continue;
    }
    // Inside flow collections: count brackets outside quoted scalars and comments.
    for (; i < line.length; i++) {
      const c = line[i];
      if (quote !== '') {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) quote = '';
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || isBlank(line[i - 1]))) break;
      else if (c === '[' || c === '{') max = Math.max(max, stack.length + ++flow);
      else if ((c === ']' || c === '}') && flow > 0 && --flow === 0) break;
    }
  }
  return max;
}
