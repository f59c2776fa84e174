// What compile() does after the library's type check, so a program is the one kube would run: it
// refuses what kube's environment does not declare although the library has it (cel.bind, bytes
// methods), checks literal arguments as cel-go's AST validators do (regex patterns, durations,
// timestamps), and puts kube's implementation behind calls whose library behaviour differs.
// Go counterparts: cel-go's ASTValidators (ValidateRegexLiterals, ValidateDurationLiterals,
// ValidateTimestampLiterals) in k8s.io/apiserver/pkg/cel/environment/base.go.
import { argsOf, callName, children, overrideCall, receiverOf, walk, type AstNode } from './ast.ts';
import { goOffset, goTypeName } from './errors.ts';
import { FormatError, formatString } from './library/format-string.ts';
import { findOverride } from './library/overrides.ts';
import { compileRE2 } from './library/regex.ts';
import { parseDurationLiteral } from './library/util.ts';

export interface Issue {
  readonly offset: number;
  readonly message: string;
}

/** Library methods on bytes that kube's environment does not have (as methods; `string` is a function). */
const NOT_IN_KUBE_BYTES = new Set(['at', 'base64', 'hex', 'json', 'string']);

const MAX_INT64 = 2n ** 63n - 1n;

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
    // matches checks a literal pattern itself (invalid matches argument); find and findAll do not.
    const inner = p !== undefined && callName(p) === 'dyn' ? argsOf(p)[0] : name === 'matches' ? undefined : p;
    if (inner?.op !== 'value' || typeof inner.args !== 'string') continue;
    const r = compileRE2(inner.args);
    if (r instanceof Error) return `program instantiation failed: ${r.message}`;
  }
  return undefined;
}

/** A map indexed with a key of another type (the library lets it through; cel-go does not). */
function mapIndexIssue(n: AstNode, input: string): Issue | undefined {
  if (n.op !== '[]' && n.op !== '[?]') return undefined;
  const [c, i] = n.args as [AstNode, AstNode];
  const key = c.checkedType?.kind === 'map' ? c.checkedType.keyType?.name : undefined;
  const idx = i.checkedType?.name;
  if (key === undefined || idx === undefined || key === idx || key.startsWith('dyn') || idx.startsWith('dyn') || /^[A-Z]$/.test(key)) return undefined;
  return { offset: goOffset(n, input), message: `found no matching overload for '${n.op === '[]' ? '_[_]' : '_[?_]'}' applied to '(${goTypeName(c.checkedType!.name)}, ${goTypeName(idx)})'` };
}

/**
 * Runs the passes over a checked tree; returns the issues kube would report (empty when the program
 * is fine). `declared` are the environment's variable names.
 */
export function kubePass(root: AstNode, input: string, declared: ReadonlySet<string>): Issue[] {
  const issues: Issue[] = [];
  // cel-go refuses int literals outside int64 (-2^63 only as the operand of a minus)
  const negated = new Set<AstNode>();
  for (const n of walk(root)) {
    if (n.op === '-_' && (n.args as AstNode).op === 'value') negated.add(n.args as AstNode);
    if (n.op === 'value' && typeof n.args === 'bigint' && (n.args > MAX_INT64 || n.args < -MAX_INT64 - 1n) && !(negated.has(n) && n.args === MAX_INT64 + 1n)) {
      issues.push({ offset: n.start, message: 'invalid int literal' });
    }
  }
  for (const n of walk(root)) {
    const index = mapIndexIssue(n, input);
    if (index !== undefined) { issues.push(index); continue; }
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
      issues.push({
        offset: goOffset(n, input),
        message: name === 'string' ? `found no matching overload for '${name}' applied to 'bytes.(${args})'` : `undeclared reference to '${name}' (in container '')`,
      });
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

/**
 * Every undeclared identifier, as cel-go reports them all (the library stops at the first). For
 * `ns.fn(…)` with an unknown `ns`, cel-go reports the function too, at its parenthesis, when no
 * function of that name is declared (kube's base environment declares the authorizer's functions
 * everywhere, so `authorizer.path(…)` in a CRD rule reports only `authorizer`).
 */
export function undeclaredIssues(root: AstNode, input: string, isDeclared: (name: string) => boolean,
  isFunction: (name: string) => boolean): Issue[] {
  const issues: Issue[] = [];
  const visit = (n: AstNode, bound: ReadonlySet<string>): void => {
    if (n.op === 'id') {
      const name = n.args as string;
      if (bound.has(name) || isDeclared(name)) return;
      issues.push({ offset: n.start, message: `undeclared reference to '${name}' (in container '')` });
      const call = /^\s*\.\s*([A-Za-z_]\w*)\s*\(/.exec(input.slice(n.end));
      if (call !== null && !isFunction(call[1]!)) issues.push({ offset: n.end + call[0].length - 1, message: `undeclared reference to '${call[1]}' (in container '')` });
      return;
    }
    const name = callName(n);
    if (name !== undefined && n.meta !== undefined && (n.meta.alternate !== undefined || n.meta.macro !== undefined)) {
      const args = argsOf(n);
      if (name === 'has') {
        let root = args[0];
        while (root !== undefined && (root.op === '.' || root.op === '.?')) root = (root.args as AstNode[])[0];
        if (root !== undefined) visit(root, bound);
        return;
      }
      const recv = receiverOf(n);
      if (recv !== undefined) visit(recv, bound);
      const vars = name.startsWith('transform') || (['all', 'exists', 'existsOne'].includes(name) && args.length === 3) ? 2 : 1;
      const inner = new Set(bound);
      for (const v of args.slice(0, vars)) if (v.op === 'id') inner.add(v.args as string);
      for (const b of args.slice(vars)) visit(b, inner);
      return;
    }
    // A call of a function no overload of which is declared (a macro called with the wrong
    // number of arguments is one): cel-go reports it at its parenthesis, after its operands.
    if (name !== undefined && !isFunction(name) && !name.startsWith('_')) {
      issues.push({ offset: goOffset(n as Parameters<typeof goOffset>[0], input), message: `undeclared reference to '${name}' (in container '')` });
    }
    for (const c of children(n)) visit(c, bound);
  };
  visit(root, new Set());
  // `ns.fn(…)`: the identifier's visit has reported the function already.
  const seen = new Set<string>();
  return issues.filter((i) => { const k = `${String(i.offset)}:${i.message}`; return !seen.has(k) && seen.add(k) !== undefined; })
    .sort((a, b) => a.offset - b.offset);
}

/** The parts of the library's checker and evaluator a replaced has() uses. */
interface HasChecker { check(n: AstNode, ctx: unknown): unknown; getType(name: string): unknown }
interface HasEvaluator { run(n: AstNode, ctx: unknown): unknown }

/**
 * has() as cel-go checks and runs it: over any operand (`has(self.items[0].name)`, `has({'a':
 * 1}.a)`), with the field checked against the operand's type. The library's has() takes only a
 * field chain from an identifier and does not check the field, so every has() gets this one.
 */
export function widenHas(root: AstNode): void {
  for (const n of walk(root)) {
    if (callName(n) !== 'has' || n.meta?.macro === undefined) continue;
    const sel = argsOf(n)[0];
    if (sel === undefined || sel.op !== '.') continue;
    const [operand, field] = sel.args as [AstNode, string];
    const macro = {
      async: false,
      typeCheck(chk: HasChecker, _m: unknown, ctx: unknown): unknown {
        // checking the selection checks its operand and that the field exists; cel-go reports
        // what is wrong with it at the has() call
        try {
          chk.check(sel, ctx);
        } catch (err) {
          const e = err as { code?: string; message?: string };
          throw Object.assign(new Error((e.message ?? String(err)).split('\n')[0]), { code: e.code, node: n });
        }
        return chk.getType('bool');
      },
      evaluate(ev: HasEvaluator, _m: unknown, ctx: unknown): boolean {
        const v = ev.run(operand, ctx);
        if (v instanceof Map) return v.has(field);
        if (typeof v === 'object' && v !== null) return Object.hasOwn(v, field);
        throw new Error('no such overload');
      },
    };
    n.setMeta?.('macro', macro);
  }
}
