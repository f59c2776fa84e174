// kube's texts for CEL errors. Compile errors read as cel-go prints its issues, which is what kube
// returns (`ERROR: <input>:1:6: undeclared reference to 'x' (in container '')` followed by the source
// line and a caret); runtime errors use cel-go's words (`no such key: x`, `division by zero`). The
// library's own errors are translated here, from their code, node and the types the checker found.
// Go counterparts: github.com/google/cel-go/common/errors.go (display format),
// k8s.io/apiserver/pkg/cel/errors.go (Error, ErrorType).

/** kube's apiservercel.ErrorType: how a CEL error becomes a field error. */
export type CelErrorType = 'invalid' | 'required' | 'internal';

/** A CEL compile or runtime error as kube reports it; `detail` is the whole text. */
export interface CelError {
  readonly type: CelErrorType;
  readonly detail: string;
}

/** The parts of the library's AST nodes the translation reads. */
interface Node {
  readonly op?: string | undefined;
  readonly args?: unknown;
  readonly start: number;
  readonly end: number;
  readonly pos: number;
  readonly checkedType?: { readonly name: string } | undefined;
}

export interface LibError {
  readonly name?: string;
  readonly code?: string;
  readonly message: string;
  readonly node?: Node | undefined;
  readonly range?: { readonly start: number; readonly end: number } | undefined;
}

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && 'start' in x && 'end' in x;

/** A library type name as cel-go prints it: `list<string>` -> `list(string)`. */
export function goTypeName(name: string | undefined): string {
  if (name === undefined) return 'dyn';
  switch (name) {
    case 'list': return 'list(dyn)';
    case 'map': return 'map(dyn, dyn)';
    case 'null': return 'null_type';
  }
  return name
    .replace(/__(idx|elem)__/g, '@$1')
    .replace(/\bnull\b(?!_)/g, 'null_type')
    .replace(/\boptional</g, 'optional_type<')
    .replace(/dyn<([^<>]*)>/g, 'dyn')
    .replace(/</g, '(')
    .replace(/>/g, ')');
}

const OPERATOR_NAMES: Readonly<Record<string, string>> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_',
  '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', in: '@in', '!_': '!_', '-_': '-_',
  '[]': '_[_]', '[?]': '_[?_]', '?:': '_?_:_', '&&': '_&&_', '||': '_||_',
};

/** The offset of the first non-space character at or after `i` that is not a closing parenthesis. */
function skipToToken(input: string, i: number): number {
  while (i < input.length && /[\s)]/.test(input[i]!)) i++;
  return i;
}

/** Where cel-go locates a node: a select at its dot, a call at its parenthesis, an operator at itself. */
export function goOffset(node: Node, input: string): number {
  const args = Array.isArray(node.args) ? (node.args as unknown[]) : [];
  switch (node.op) {
    case '.':
    case '.?': {
      let i = node.pos - 1;
      while (i > 0 && /\s/.test(input[i]!)) i--;
      if (input[i] === '?') i--;
      return i >= 0 && input[i] === '.' ? i : node.pos;
    }
    case 'call':
      return Math.max(node.start, input.indexOf('(', node.start));
    case 'rcall': {
      const receiver = args[1];
      const from = isNode(receiver) ? receiver.end : node.start;
      const i = input.indexOf('(', from);
      return i < 0 ? node.start : i;
    }
    case '[]':
    case '[?]':
    case '?:':
    case '+': case '-': case '*': case '/': case '%': case '==': case '!=':
    case '<': case '<=': case '>': case '>=': case 'in': case '&&': case '||': {
      const left = args[0];
      if (isNode(left)) return skipToToken(input, left.end);
      return node.start;
    }
    default:
      return node.start;
  }
}

/** One issue in cel-go's display format: location, message, the source line and a caret. */
export function formatIssue(input: string, offset: number, message: string): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < input.length; i++) {
    if (input[i] === '\n') { line++; lineStart = i + 1; }
  }
  const col = offset - lineStart;
  let lineEnd = input.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = input.length;
  const head = `ERROR: <input>:${line}:${col + 1}: ${message}`;
  const snippet = input.slice(lineStart, lineEnd);
  if (Buffer.byteLength(snippet) > MAX_SNIPPET_LENGTH) return head;
  // A character of more than one UTF-8 byte gets a full-width dot (or caret) under it.
  const mark = (ch: string | undefined, narrow: string, wide: string): string => (ch !== undefined && Buffer.byteLength(ch) > 1 ? wide : narrow);
  const indicator = [...snippet.slice(0, col)].map((ch) => mark(ch, '.', '\uff0e')).join('') + mark([...snippet.slice(col)][0], '^', '\uff3e');
  return `${head}\n | ${snippet.replace(/\t/g, ' ')}\n | ${indicator}`;
}

/** cel-go prints no source line longer than this many bytes. */
const MAX_SNIPPET_LENGTH = 16384;

const EXPECTING = `{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}`;

/** The source text of the token at `at` (an identifier, number, string, or operator). */
function tokenAt(input: string, at: number): string {
  const m = /^(?:[A-Za-z_]\w*|\d+(?:\.\d+)?u?|'[^']*'|"[^"]*"|==|!=|<=|>=|&&|\|\||\S)/.exec(input.slice(at));
  return m?.[0] ?? '';
}

/** A type in the checker's messages (cel-go's FormatCELType): as goTypeName, but null is `null`. */
const checkerTypeName = (name: string | undefined): string => goTypeName(name).replace(/\bnull_type\b/g, 'null');

const typeOf = (x: unknown): string => checkerTypeName(isNode(x) ? x.checkedType?.name : undefined);

/** The cel-go issues (location and message) of a library parse or type error. */
export function issuesOf(e: LibError, input: string, isFunction: (name: string) => boolean): { offset: number; message: string }[] {
  const node = e.node;
  const at = node !== undefined ? node.start : (e.range?.start ?? 0);
  const args = node !== undefined && Array.isArray(node.args) ? (node.args as unknown[]) : [];
  const first = e.message.split('\n')[0] ?? e.message;
  switch (e.code) {
    case 'unexpected_token': {
      // ANTLR: a token that can be deleted to go on is "extraneous", else "mismatched"
      const tok = /^Unexpected token: (.*)$/.exec(first)?.[1] ?? '';
      const before = input.slice(0, tok === 'EOF' ? input.length : at).trimEnd();
      const expecting = before.endsWith('[') ? EXPECTING.replace("'!', ", "'!', '?', ") : EXPECTING;
      if (tok === 'EOF') {
        const kind = /[!-]$/.test(before) ? 'extraneous' : 'mismatched';
        // Right after a call's parenthesis the argument list may also close.
        // (an object construction, rewritten to `__new_<Type>({"f": dyn(…`, has no such call)
        const callee = /([A-Za-z_]\w*)\s*\($/.exec(before)?.[1];
        const rewritten = callee?.startsWith('__new_') === true || /"\s*:\s*dyn\s*\($/.test(before);
        const expected = callee !== undefined && !rewritten ? expecting.replace("'(', ", "'(', ')', ") : expecting;
        return [{ offset: input.length, message: `Syntax error: ${kind} input '<EOF>' expecting ${expected}` }];
      }
      const text = tokenAt(input, at) || tok;
      const kind = /^\s*(?:[\w'"([{!.-]|$)/.test(input.slice(at + text.length)) && input.slice(at + text.length).trim() !== '' ? 'extraneous' : 'mismatched';
      return [{ offset: at, message: `Syntax error: ${kind} input '${text}' expecting ${expecting}` }];
    }
    case 'expected_token': {
      const m = /^Expected (\w+), got (\w+)$/.exec(first);
      if (m === null) break;
      const got = m[2] === 'EOF' ? '<EOF>' : tokenAt(input, at);
      const closer: Readonly<Record<string, string>> = { RPAREN: ')', RBRACKET: ']', RBRACE: '}' };
      if (m[1] === 'IDENTIFIER') return [{ offset: at, message: `Syntax error: no viable alternative at input '${input.slice(Math.max(0, at - 1), at + (m[2] === 'EOF' ? 0 : got.length))}'` }];
      // A list or map literal may go on with another element.
      if (m[1] === 'RBRACKET' || m[1] === 'RBRACE') {
        // ANTLR deletes one token when the next is what it expects: "extraneous".
        const next = m[2] === 'EOF' ? '' : input.slice(at + got.length).trimStart().charAt(0);
        const kind = next === closer[m[1]] || next === ',' ? 'extraneous' : 'mismatched';
        return [{ offset: at, message: `Syntax error: ${kind} input '${got}' expecting {'${closer[m[1]]!}', ','}` }];
      }
      if (closer[m[1]!] !== undefined) return [{ offset: at, message: `Syntax error: missing '${closer[m[1]!]}' at '${got}'` }];
      if (m[1] === 'COLON') return [{ offset: at, message: `Syntax error: mismatched input '${got}' expecting ':'` }];
      break;
    }
    case 'unterminated_string':
      return [
        { offset: at, message: `Syntax error: token recognition error at: '${input.slice(at)}'` },
        { offset: input.length, message: `Syntax error: mismatched input '<EOF>' expecting ${EXPECTING}` },
      ];
    case 'unexpected_character': {
      // quoted: the parser stopped before the end (a token kube's grammar does not expect there);
      // unquoted: the lexer found no token
      if (/^Unexpected character: '.*'$/.test(first)) {
        return [{ offset: at, message: `Syntax error: extraneous input '${tokenAt(input, at)}' expecting <EOF>` }];
      }
      return [{ offset: at, message: `Syntax error: token recognition error at: '${input.slice(at, at + 1)}'` }];
    }
    case 'unknown_variable': {
      const name = /^Unknown variable: (.*)$/.exec(first)?.[1] ?? '';
      const out = [{ offset: at, message: `undeclared reference to '${name}' (in container '')` }];
      // `ns.fn(…)` with an unknown `ns`: cel-go reports the function too, at its parenthesis, when
      // no function of that name is declared.
      const call = /^\s*\.\s*([A-Za-z_]\w*)\s*\(/.exec(input.slice(at + name.length));
      if (call !== null && !isFunction(call[1]!)) out.push({ offset: at + name.length + call[0].length - 1, message: `undeclared reference to '${call[1]}' (in container '')` });
      return out;
    }
    case 'no_such_key': {
      const name = /^No such key: (.*)$/.exec(first)?.[1] ?? '';
      return [{ offset: node ? goOffset(node, input) : at, message: `undefined field '${name}'` }];
    }
    case 'cannot_index_type': {
      const t = /'([^']*)'/.exec(first)?.[1];
      return [{ offset: node ? goOffset(node, input) : at, message: `type '${checkerTypeName(t)}' does not support field selection` }];
    }
    case 'no_such_overload':
    case 'invalid_index_type':
    case 'incompatible_ternary_branches':
    case 'invalid_condition_type': {
      if (node === undefined) break;
      const op = OPERATOR_NAMES[node.op ?? ''] ?? node.op ?? '';
      const operands = node.op === '!_' || node.op === '-_' ? [node.args] : args;
      return [{ offset: goOffset(node, input), message: `found no matching overload for '${op}' applied to '(${operands.map(typeOf).join(', ')})'` }];
    }
    case 'no_matching_overload': {
      if (node === undefined) break;
      const m = /^found no matching overload for '(?:(.*)\.)?([^.(]+)\((.*)\)'$/.exec(first);
      if (m === null) break;
      // cel-go: a function of that name does not exist at all
      if (!isFunction(m[2]!)) return [{ offset: goOffset(node, input), message: `undeclared reference to '${m[2]}' (in container '')` }];
      const receiver = m[1] !== undefined ? `${checkerTypeName(m[1])}.` : '';
      return [{ offset: goOffset(node, input), message: `found no matching overload for '${m[2]}' applied to '${receiver}(${m[3]!.split(/,\s*(?![^<]*>)/).filter((x) => x !== '').map(checkerTypeName).join(', ')})'` }];
    }
    case 'invalid_logical_operand': {
      const bad = args.find((a) => isNode(a) && a.checkedType !== undefined && a.checkedType.name !== 'bool' && !a.checkedType.name.startsWith('dyn')) ?? args[1];
      const found = /got '([^']*)'/.exec(first)?.[1];
      return [{ offset: isNode(bad) ? goOffset(bad, input) : at, message: `expected type 'bool' but found '${checkerTypeName(found)}'` }];
    }
    case 'heterogeneous_list_element':
    case 'heterogeneous_map_key':
    case 'heterogeneous_map_value': {
      const m = /expected type '([^']*)' but found '([^']*)'/.exec(first);
      if (m === null) break;
      return [{ offset: node ? goOffset(node, input) : at, message: `expected type '${checkerTypeName(m[1])}' but found '${checkerTypeName(m[2])}'` }];
    }
    case 'invalid_macro_argument':
      if (first.startsWith('has()')) return [{ offset: at, message: 'invalid argument to has() macro' }];
      return [{ offset: at, message: 'argument must be a simple name' }];
  }
  const orValue = /^optional\.orValue\(value\) argument must be compatible type, got '([^']*)' and '([^']*)'/.exec(first);
  if (orValue !== null) {
    // cel-go: no overload of orValue for the optional's type and the argument's (at the parenthesis).
    const paren = input.lastIndexOf('(', at);
    return [{ offset: paren < 0 ? at : paren,
      message: `found no matching overload for 'orValue' applied to 'optional_type(${checkerTypeName(orValue[1])}).(${checkerTypeName(orValue[2])})'` }];
  }
  if (first.startsWith('Reserved identifier: ')) return [{ offset: at, message: `reserved identifier: ${first.slice(21)}` }];
  return [{ offset: node ? goOffset(node, input) : at, message: first }];
}

/** A library parse/type error as cel-go's issue list (the text after kube's `compilation failed: `). */
export function compileIssues(err: unknown, input: string, isFunction: (name: string) => boolean = () => true): string {
  if (typeof err !== 'object' || err === null || !('message' in err)) return String(err);
  return issuesOf(err as LibError, input, isFunction).map((i) => formatIssue(input, i.offset, i.message)).join('\n');
}

/** The checked type of a conversion call's argument (`int(x)`: x's), when known and not dyn. */
function conversionSource(node: Node | undefined): string | undefined {
  if (node === undefined || node.op !== 'call' || !Array.isArray(node.args)) return undefined;
  const arg = (node.args as [string, unknown[]])[1]?.[0];
  const name = isNode(arg) ? arg.checkedType?.name : undefined;
  return name === undefined || name.startsWith('dyn') ? undefined : goTypeName(name);
}

/** A library runtime error in cel-go's words. */
export function runtimeMessage(err: unknown): string {
  if (typeof err !== 'object' || err === null || !('message' in err)) return String(err);
  const e = err as LibError;
  const first = e.message.split('\n')[0] ?? e.message;
  switch (e.code) {
    case 'no_such_key': return `no such key: ${/^No such key: (.*)$/.exec(first)?.[1] ?? ''}`;
    case 'division_by_zero': return 'division by zero';
    case 'modulo_by_zero': return 'modulus by zero';
    case 'numeric_overflow': return /unsigned/i.test(first) ? 'unsigned integer overflow' : 'integer overflow';
    case 'optional_value_missing': return 'optional.none() dereference';
    case 'no_such_overload':
    case 'no_matching_overload': return 'no such overload';
    case 'index_out_of_bounds': return `index out of bounds: ${/index (-?\d+)/.exec(first)?.[1] ?? ''}`;
    case 'invalid_duration': return "type conversion error from 'string' to 'google.protobuf.Duration'";
    case 'invalid_timestamp': return "type conversion error from 'string' to 'google.protobuf.Timestamp'";
    case 'int_conversion_error':
    case 'uint_conversion_error':
    case 'double_conversion_error':
    case 'bool_conversion_error': {
      // cel-go: a string that does not parse, else a number out of the target's range.
      const target = e.code.slice(0, e.code.indexOf('_'));
      const from = conversionSource(e.node);
      if (from === 'string' || from === undefined) return `type conversion error from 'string' to '${target}'`;
      return target === 'uint' ? 'unsigned integer overflow' : target === 'int' ? 'integer overflow' : `type conversion error from '${from}' to '${target}'`;
    }
  }
  // A comprehension over a dyn value that is not a list or map: cel-go names the value's Go type.
  const range = /^Expression of type '([\w.]+)' cannot be range of a comprehension/.exec(first);
  if (range !== null) {
    const t = range[1] ?? '';
    const goType = t === 'null' || t === 'null_type' ? 'Null' : t.startsWith('google.protobuf.') ? t.slice(16) : `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
    return `got 'types.${goType}', expected iterable type`;
  }
  return first;
}
