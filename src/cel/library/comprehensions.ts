// Macros kube v1.36 has and the library does not: cel-go's two-variable comprehensions (all, exists,
// existsOne, transformList, transformMap, transformMapEntry with an index/key and a value variable),
// the lists extension's sortBy, and the optional library's optMap/optFlatMap. They are library macros
// (functions taking unevaluated arguments) that type-check and evaluate their argument expressions in
// a scope with the new variables.
// Go counterparts: github.com/google/cel-go/ext/comprehensions.go, ext/lists.go (sortBy),
// cel/library.go (optMap, optFlatMap).
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { celEquals } from '../values.ts';
import { compare, elements, fail } from './util.ts';

/** The parts of the library's checker, scope and evaluator a macro uses. */
interface LibType { readonly kind: string; readonly name: string; readonly valueType?: LibType; readonly keyType?: LibType }
interface Scope {
  forkWithVariable(name: string, type: LibType): Scope;
  reuse(parent: Scope): Scope;
  setIterValue(v: unknown, ev: Evaluator): Scope;
}
interface Checker {
  check(node: Node, scope: Scope): LibType;
  getType(name: string): LibType;
  readonly registry: { getListType(t: LibType): LibType; getMapType(k: LibType, v: LibType): LibType; getOptionalType(t: LibType): LibType };
  createError(code: string, message: string, node: Node): Error;
}
interface Evaluator { run(node: Node, scope: Scope): unknown }
interface Node { readonly op: string; readonly args: unknown }

interface Macro {
  readonly receiver: Node;
  readonly vars: readonly string[];
  readonly filter: Node | undefined;
  readonly body: Node;
  scope?: Scope;
  inner?: Scope;
  readonly async: false;
  typeCheck(chk: Checker, m: Macro, scope: Scope): LibType;
  evaluate(ev: Evaluator, m: Macro, scope: Scope): unknown;
}

const identName = (chk: Checker | undefined, n: Node): string => {
  if (n.op === 'id' && typeof n.args === 'string') return n.args;
  // The parser has no checker; cel-go's parser reports this text.
  const err = chk?.createError('invalid_macro_argument', 'argument must be a simple name', n);
  throw err ?? Object.assign(new Error('argument must be a simple name'), { code: 'invalid_macro_argument', node: n });
};

/** [index/key type, value type] of iterating `t` with two variables. */
function rangeTypes(chk: Checker, t: LibType): [LibType, LibType] {
  if (t.kind === 'list') return [chk.getType('int'), t.valueType ?? chk.getType('dyn')];
  if (t.kind === 'map') return [t.keyType ?? chk.getType('dyn'), t.valueType ?? chk.getType('dyn')];
  return [chk.getType('dyn'), chk.getType('dyn')];
}

/** [index/key, value] pairs of a list or map value. */
function entries(v: unknown): [unknown, unknown][] {
  if (v instanceof Map) return [...v.entries()];
  if (typeof v === 'object' && v !== null && v.constructor === Object) return Object.entries(v);
  if (Array.isArray(v) || v instanceof Set) return elements(v).map((x, i) => [BigInt(i), x]);
  return fail('no such overload');
}

function expectBool(chk: Checker, node: Node, scope: Scope): void {
  const t = chk.check(node, scope);
  if (t.name !== 'bool' && !t.name.startsWith('dyn')) throw chk.createError('invalid_predicate', `expected type 'bool' but found '${t.name}'`, node);
}

type Body = (ev: Evaluator, m: Macro, pairs: [unknown, unknown][], run: (node: Node, k: unknown, v: unknown) => unknown) => unknown;

function twoVar(name: string, withFilter: boolean, result: (chk: Checker, m: Macro, key: LibType, body: LibType) => LibType, body: Body) {
  return ({ args, receiver }: { args: Node[]; receiver: Node }): Macro => {
    const vars = [identName(undefined, args[0]!), identName(undefined, args[1]!)];
    return {
      receiver, vars, filter: withFilter ? args[2] : undefined, body: args[withFilter ? 3 : 2]!, async: false,
      typeCheck(chk, m, scope) {
        const [kt, vt] = rangeTypes(chk, chk.check(m.receiver, scope));
        m.scope = scope.forkWithVariable(m.vars[0]!, kt);
        m.inner = m.scope.forkWithVariable(m.vars[1]!, vt);
        if (m.filter !== undefined) expectBool(chk, m.filter, m.inner);
        if (name === 'all' || name === 'exists' || name === 'existsOne') expectBool(chk, m.body, m.inner);
        return result(chk, m, kt, chk.check(m.body, m.inner));
      },
      evaluate(ev, m, scope) {
        const outer = m.scope!.reuse(scope);
        const inner = m.inner!.reuse(outer);
        const run = (node: Node, k: unknown, v: unknown): unknown => {
          outer.setIterValue(k, ev);
          inner.setIterValue(v, ev);
          return ev.run(node, inner);
        };
        let pairs = entries(ev.run(m.receiver, scope));
        if (m.filter !== undefined) pairs = pairs.filter(([k, v]) => run(m.filter!, k, v) === true);
        return body(ev, m, pairs, run);
      },
    };
  };
}

function quantifier(stopOn: boolean): Body {
  return (_ev, m, pairs, run) => {
    let error: unknown;
    for (const [k, v] of pairs) {
      try {
        if (run(m.body, k, v) === stopOn) return stopOn;
      } catch (err) {
        error ??= err;
      }
    }
    if (error !== undefined) throw error;
    return !stopOn;
  };
}

const boolResult = (chk: Checker): LibType => chk.getType('bool');

export function registerComprehensions(env: Environment): void {
  const macro = (sig: string, h: (o: { args: Node[]; receiver: Node }) => Macro): void => {
    env.registerFunction(sig, h as (...args: unknown[]) => unknown);
  };
  macro('list.all(ast, ast, ast): bool', twoVar('all', false, boolResult, quantifier(false)));
  macro('list.exists(ast, ast, ast): bool', twoVar('exists', false, boolResult, quantifier(true)));
  macro('list.existsOne(ast, ast, ast): bool', twoVar('existsOne', false, boolResult, (_ev, m, pairs, run) => {
    let n = 0;
    for (const [k, v] of pairs) if (run(m.body, k, v) === true) n++;
    return n === 1;
  }));
  const listResult = (chk: Checker, _m: Macro, _k: LibType, b: LibType): LibType => chk.registry.getListType(b);
  const toList: Body = (_ev, m, pairs, run) => pairs.map(([k, v]) => run(m.body, k, v));
  macro('list.transformList(ast, ast, ast): list<dyn>', twoVar('transformList', false, listResult, toList));
  macro('list.transformList(ast, ast, ast, ast): list<dyn>', twoVar('transformList', true, listResult, toList));
  const mapResult = (chk: Checker, _m: Macro, k: LibType, b: LibType): LibType => chk.registry.getMapType(k, b);
  const toMap: Body = (_ev, m, pairs, run) => new Map(pairs.map(([k, v]) => [k, run(m.body, k, v)]));
  macro('list.transformMap(ast, ast, ast): map<dyn, dyn>', twoVar('transformMap', false, mapResult, toMap));
  macro('list.transformMap(ast, ast, ast, ast): map<dyn, dyn>', twoVar('transformMap', true, mapResult, toMap));
  const entryResult = (_chk: Checker, _m: Macro, _k: LibType, b: LibType): LibType => b;
  const toEntries: Body = (_ev, m, pairs, run) => {
    const out = new Map<unknown, unknown>();
    for (const [k, v] of pairs) {
      const e = run(m.body, k, v);
      const es = e instanceof Map ? [...e.entries()] : Object.entries(e as object);
      for (const [ek, ev] of es) {
        if ([...out.keys()].some((x) => celEquals(x, ek))) fail(`insert failed: key ${String(ek)} already exists`);
        out.set(ek, ev);
      }
    }
    return out;
  };
  macro('list.transformMapEntry(ast, ast, ast): map<dyn, dyn>', twoVar('transformMapEntry', false, entryResult, toEntries));
  macro('list.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>', twoVar('transformMapEntry', true, entryResult, toEntries));

  macro('list.sortBy(ast, ast): list<dyn>', ({ args, receiver }) => ({
    receiver, vars: [identName(undefined, args[0]!)], filter: undefined, body: args[1]!, async: false,
    typeCheck(chk, m, scope) {
      const t = chk.check(m.receiver, scope);
      m.scope = scope.forkWithVariable(m.vars[0]!, t.kind === 'list' ? (t.valueType ?? chk.getType('dyn')) : chk.getType('dyn'));
      chk.check(m.body, m.scope);
      return t;
    },
    evaluate(ev, m, scope) {
      const s = m.scope!.reuse(scope);
      const items = elements(ev.run(m.receiver, scope));
      const keyed = items.map((x) => [ev.run(m.body, s.setIterValue(x, ev)), x] as const);
      return keyed.sort((a, b) => compare(a[0], b[0])).map(([, x]) => x);
    },
  }));

  for (const flat of [false, true]) {
    macro(`optional<dyn>.${flat ? 'optFlatMap' : 'optMap'}(ast, ast): optional<dyn>`, ({ args, receiver }) => ({
      receiver, vars: [identName(undefined, args[0]!)], filter: undefined, body: args[1]!, async: false,
      typeCheck(chk, m, scope) {
        const t = chk.check(m.receiver, scope);
        m.scope = scope.forkWithVariable(m.vars[0]!, t.kind === 'optional' ? (t.valueType ?? chk.getType('dyn')) : chk.getType('dyn'));
        const b = chk.check(m.body, m.scope);
        return flat ? b : chk.registry.getOptionalType(b);
      },
      evaluate(ev, m, scope) {
        const o = ev.run(m.receiver, scope);
        if (!(o instanceof Optional)) return fail('no such overload');
        if (!o.hasValue()) return Optional.none();
        const r = ev.run(m.body, m.scope!.reuse(scope).setIterValue(o.value(), ev));
        return flat ? r : Optional.of(r);
      },
    }));
  }
}
