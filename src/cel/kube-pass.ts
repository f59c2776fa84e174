// What compile() does after the library's type check, so a program is the one kube would run: it
// refuses what kube's environment does not declare although the library has it (cel.bind, bytes
// methods), checks literal arguments as cel-go's AST validators do (regex patterns, durations,
// timestamps), and puts kube's implementation behind calls whose library behaviour differs.
// Go counterparts: cel-go's ASTValidators (ValidateRegexLiterals, ValidateDurationLiterals,
// ValidateTimestampLiterals) in k8s.io/apiserver/pkg/cel/environment/base.go.
import { argsOf, callName, overrideCall, receiverOf, walk, type AstNode } from './ast.ts';
import { goOffset, goTypeName } from './errors.ts';
import { FormatError, formatString } from './library/format-string.ts';
import { findOverride } from './library/overrides.ts';
import { compileRE2 } from './library/regex.ts';
import { parseDurationLiteral } from './library/util.ts';

export interface Issue {
  readonly offset: number;
  readonly message: string;
}

/** Library methods on bytes that kube's environment does not have. */
const NOT_IN_KUBE_BYTES = new Set(['at', 'base64', 'hex', 'json', 'string']);

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function literalIssue(n: AstNode, input: string): Issue | undefined {
  const name = callName(n);
  const args = argsOf(n);
  if (n.op !== 'call' || args.length !== 1) return undefined;
  const a = args[0]!;
  if (a.op !== 'value' || typeof a.args !== 'string') return undefined;
  if (name === 'duration' && parseDurationLiteral(a.args) === undefined) return { offset: goOffset(a, input), message: 'invalid duration argument' };
  if (name === 'timestamp' && (!RFC3339.test(a.args) || Number.isNaN(new Date(a.args).getTime()))) {
    return { offset: goOffset(a, input), message: 'invalid timestamp argument' };
  }
  return undefined;
}

/** The value of a literal (or a list/map of literals), or undefined when `n` is not constant. */
function literalValue(n: AstNode): { v: unknown } | undefined {
  if (n.op === 'value') return { v: n.args };
  if (n.op === 'list') {
    const items = (n.args as AstNode[]).map(literalValue);
    return items.every((x) => x !== undefined) ? { v: items.map((x) => x!.v) } : undefined;
  }
  if (n.op === 'map') {
    const m = new Map<unknown, unknown>();
    for (const [k, v] of n.args as [AstNode, AstNode][]) {
      const kv = literalValue(k);
      const vv = literalValue(v);
      if (kv === undefined || vv === undefined) return undefined;
      m.set(kv.v, vv.v);
    }
    return { v: m };
  }
  return undefined;
}

/** cel-go's check of `'...'.format([...])` when the format and its arguments are literals. */
function formatIssue(n: AstNode, input: string): Issue | undefined {
  const recv = receiverOf(n);
  const list = argsOf(n)[0];
  if (callName(n) !== 'format' || recv?.op !== 'value' || typeof recv.args !== 'string' || list?.op !== 'list') return undefined;
  const args = literalValue(list);
  if (args === undefined) return undefined;
  try {
    formatString(recv.args, args.v as unknown[]);
    return undefined;
  } catch (err) {
    const at = err instanceof FormatError && err.argIndex !== undefined ? (list.args as AstNode[])[err.argIndex] : undefined;
    return { offset: at !== undefined ? goOffset(at, input) : goOffset(n, input), message: (err as Error).message };
  }
}

/**
 * A regex pattern kube compiles when it plans the program (a constant that is not a literal, such as
 * `dyn('[')`): its error, worded as kube's `program instantiation failed: …`.
 */
export function planIssue(root: AstNode): string | undefined {
  for (const n of walk(root)) {
    const name = callName(n);
    if (name !== 'matches' && name !== 'find' && name !== 'findAll') continue;
    const p = argsOf(n)[receiverOf(n) !== undefined ? 0 : 1];
    const inner = p !== undefined && callName(p) === 'dyn' ? argsOf(p)[0] : undefined;
    if (inner?.op !== 'value' || typeof inner.args !== 'string') continue;
    const r = compileRE2(inner.args);
    if (r instanceof Error) return `program instantiation failed: ${r.message}`;
  }
  return undefined;
}

/**
 * Runs the passes over a checked tree; returns the issues kube would report (empty when the program
 * is fine). `declared` are the environment's variable names.
 */
export function kubePass(root: AstNode, input: string, declared: ReadonlySet<string>): Issue[] {
  const issues: Issue[] = [];
  for (const n of walk(root)) {
    const name = callName(n);
    if (name === undefined) continue;
    const receiver = receiverOf(n);
    if (receiver !== undefined && receiver.op === 'id' && receiver.args === 'cel' && !declared.has('cel')) {
      issues.push({ offset: receiver.start, message: "undeclared reference to 'cel' (in container '')" });
      issues.push({ offset: goOffset(n, input), message: `undeclared reference to '${name}' (in container '')` });
      continue;
    }
    const recvType = receiver?.checkedType?.name;
    if (recvType === 'bytes' && NOT_IN_KUBE_BYTES.has(name)) {
      const args = argsOf(n).map((a) => goTypeName(a.checkedType?.name)).join(', ');
      issues.push({ offset: goOffset(n, input), message: `found no matching overload for '${name}' applied to 'bytes.(${args})'` });
      continue;
    }
    const lit = literalIssue(n, input) ?? formatIssue(n, input);
    if (lit !== undefined) { issues.push(lit); continue; }
    const o = findOverride(name, receiver !== undefined, argsOf(n).length);
    if (o === undefined) continue;
    if (o.receiver !== undefined && recvType !== o.receiver && !(recvType ?? 'dyn').startsWith('dyn')) continue;
    const bad = o.validate?.(argsOf(n));
    if (bad !== undefined) { issues.push({ offset: goOffset(bad.node, input), message: bad.message }); continue; }
    overrideCall(n, o.fn as (...args: unknown[]) => unknown);
  }
  return issues.sort((a, b) => a.offset - b.offset);
}
