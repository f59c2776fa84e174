// kube's static cost estimate of a compiled expression: cel-go's estimator (checker/cost.go) over the
// library's checked tree, with sizes from the declared DeclTypes (kube's sizeEstimator: the most
// elements a list, map or string under a variable can hold) and kube's per-function estimates.
// Macros are costed as cel-go costs their expansions (loop condition and step per iteration).
// Go counterparts: github.com/google/cel-go/checker/cost.go, k8s.io/apiextensions-apiserver/pkg/
// apiserver/schema/cel/compilation.go (sizeEstimator), k8s.io/apiserver/pkg/cel/library/cost.go.
import { argsOf, callName, receiverOf, type AstNode } from './ast.ts';
import type { Program } from './compile.ts';
import { callCost, compareCost, type ArgInfo } from './cost-functions.ts';
import { add, byFactor, fixed, LIST_CREATE, MAP_CREATE, mul, STRING_TRAVERSAL, sum, union, UNKNOWN_SIZE, ZERO, type Estimate } from './cost-math.ts';
import type { DeclType } from './types.ts';

export type { Estimate } from './cost-math.ts';

interface Info {
  readonly cost: Estimate;
  /** Computed size (literals, call results, comprehensions). */
  readonly size?: Estimate | undefined;
  /** Path from a variable (`self`, `spec`, `@items`…) for DeclType sizes. */
  readonly path?: readonly string[] | undefined;
  /** Element size of a list literal. */
  readonly elem?: Estimate | undefined;
}

interface Local {
  readonly path: readonly string[] | undefined;
  readonly size: Estimate | undefined;
}

type Scope = ReadonlyMap<string, Local>;

const SCALARS = new Set(['bool', 'int', 'uint', 'double', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);
const OPAQUE_EQ = /^(net\.(IP|CIDR)|kubernetes\.(Quantity|Semver|authorization\..*))$/;

/** The nodes a macro was given: receiver, iteration variables and argument expressions. */
interface MacroParts { readonly name: string; readonly receiver: AstNode | undefined; readonly args: readonly AstNode[] }

const macroOf = (n: AstNode): MacroParts | undefined => {
  const meta = n.meta;
  if (meta?.macro === undefined && meta?.alternate === undefined) return undefined;
  const name = callName(n);
  return name === undefined ? undefined : { name, receiver: receiverOf(n), args: argsOf(n) };
};

class Estimator {
  constructor(private readonly vars: ReadonlyMap<string, DeclType>) {}

  /** kube's sizeEstimator: the DeclType at `path` under a declared variable. */
  private declSize(path: readonly string[] | undefined): Estimate | undefined {
    if (path === undefined || path.length === 0) return undefined;
    let t = this.vars.get(path[0]!);
    for (const p of path.slice(1)) {
      if (t === undefined) return undefined;
      if (p === '@items' || p === '@values') t = t.kind === 'list' ? t.elem : t.kind === 'map' ? t.value : undefined;
      else if (p === '@keys') t = t.kind === 'map' ? t.key : undefined;
      else t = t.kind === 'object' ? t.fields.get(p)?.type : undefined;
    }
    return t === undefined ? undefined : { min: 0, max: t.maxElements };
  }

  private sizeOf(n: AstNode, info: Info, scope: Scope): Estimate | undefined {
    if (info.size !== undefined) return info.size;
    const d = this.declSize(info.path);
    if (d !== undefined) return d;
    if (n.checkedType !== undefined && SCALARS.has(n.checkedType.name)) return fixed(1);
    if (n.op === 'id' && typeof n.args === 'string') return scope.get(n.args)?.size;
    return undefined;
  }

  private arg(n: AstNode, info: Info, scope: Scope): ArgInfo {
    const elemPath = info.path !== undefined ? [...info.path, '@items'] : undefined;
    return {
      type: n.checkedType?.name, size: this.sizeOf(n, info, scope),
      literal: n.op === 'value' ? n.args : undefined,
      // kube's listElementNode knows only declared element sizes, not a literal's
      elemSize: this.declSize(elemPath),
    };
  }

  est(n: AstNode, scope: Scope): Info {
    switch (n.op) {
      case 'value': {
        const v = n.args;
        const size = typeof v === 'string' ? fixed([...v].length) : v instanceof Uint8Array ? fixed(v.length) : fixed(1);
        return { cost: ZERO, size };
      }
      case 'id': {
        const name = n.args as string;
        const local = scope.get(name);
        return { cost: fixed(1), path: local !== undefined ? local.path : [name] };
      }
      case '.': {
        const [operand, field] = n.args as [AstNode, string];
        const o = this.est(operand, scope);
        const kind = operand.checkedType?.kind;
        const cost = kind === 'map' || kind === 'message' ? add(o.cost, fixed(1)) : o.cost;
        return { cost, path: o.path !== undefined ? [...o.path, field] : undefined };
      }
      case '.?': {
        const o = this.est((n.args as [AstNode])[0], scope);
        return { cost: add(o.cost, fixed(1)) };
      }
      case '[]': case '[?]': {
        const [c, i] = n.args as [AstNode, AstNode];
        const ci = this.est(c, scope);
        const ii = this.est(i, scope);
        const sub = c.checkedType?.kind === 'map' ? '@values' : '@items';
        return { cost: add(add(ci.cost, ii.cost), fixed(1)), path: n.op === '[]' && ci.path !== undefined ? [...ci.path, sub] : undefined, size: n.op === '[]' ? ci.elem : undefined };
      }
      case '!_': case '-_':
        return { cost: add(this.est(n.args as AstNode, scope).cost, fixed(1)) };
      case '&&': case '||': {
        const [l, r] = (n.args as [AstNode, AstNode]).map((x) => this.est(x, scope)) as [Info, Info];
        return { cost: { min: l.cost.min, max: add(l.cost, r.cost).max } };
      }
      case '?:': {
        const [c, t, f] = (n.args as [AstNode, AstNode, AstNode]).map((x) => this.est(x, scope)) as [Info, Info, Info];
        return { cost: add(c.cost, union(t.cost, f.cost)) };
      }
      case 'list': {
        const items = (n.args as AstNode[]).map((x) => ({ node: x, info: this.est(x, scope) }));
        let elem: Estimate | undefined;
        for (const it of items) {
          const s = this.sizeOf(it.node, it.info, scope) ?? UNKNOWN_SIZE;
          elem = elem === undefined ? s : union(elem, s);
        }
        return { cost: add(sum(items.map((x) => x.info.cost)), fixed(LIST_CREATE)), size: fixed(items.length), elem: elem ?? ZERO };
      }
      case 'map': {
        const entries = n.args as [AstNode, AstNode][];
        const costs = entries.flat().map((x) => this.est(x, scope).cost);
        return { cost: add(sum(costs), fixed(MAP_CREATE)), size: fixed(entries.length) };
      }
      case 'call': case 'rcall':
        return this.call(n, scope);
      default: {
        const [l, r] = n.args as [AstNode, AstNode];
        return this.binary(n.op, l, r, scope);
      }
    }
  }

  private binary(op: string, l: AstNode, r: AstNode, scope: Scope): Info {
    const li = this.est(l, scope);
    const ri = this.est(r, scope);
    const args = add(li.cost, ri.cost);
    const la = this.arg(l, li, scope);
    const ra = this.arg(r, ri, scope);
    const lt = l.checkedType?.name ?? 'dyn';
    switch (op) {
      case '==': case '!=':
        if (lt === r.checkedType?.name && OPAQUE_EQ.test(lt)) return { cost: add(args, fixed(1)) };
        return { cost: add(args, compareCost(la, ra)) };
      case '<': case '<=': case '>': case '>=':
        if (lt === 'string' || lt === 'bytes') return { cost: add(args, compareCost(la, ra)) };
        return { cost: add(args, fixed(1)) };
      case '+': {
        const size = add(la.size ?? UNKNOWN_SIZE, ra.size ?? UNKNOWN_SIZE);
        if (lt === 'string' || lt === 'bytes') return { cost: add(args, byFactor(size, STRING_TRAVERSAL)), size };
        if (l.checkedType?.kind === 'list') return { cost: add(args, fixed(1)), size, elem: li.elem !== undefined && ri.elem !== undefined ? union(li.elem, ri.elem) : undefined };
        return { cost: add(args, fixed(1)) };
      }
      case 'in':
        if (r.checkedType?.kind === 'list') return { cost: add(args, ra.size ?? UNKNOWN_SIZE) };
        return { cost: add(args, fixed(1)) };
      default:
        return { cost: add(args, fixed(1)) };
    }
  }

  private call(n: AstNode, scope: Scope): Info {
    const m = macroOf(n);
    if (m !== undefined) return this.macro(m, scope);
    const name = callName(n)!;
    const recv = receiverOf(n);
    const args = argsOf(n);
    if (name === 'dyn' && recv === undefined && args.length === 1) {
      const a = this.est(args[0]!, scope);
      return { cost: add(a.cost, fixed(1)), size: this.sizeOf(args[0]!, a, scope), path: a.path };
    }
    const ri = recv !== undefined ? this.est(recv, scope) : undefined;
    const ais = args.map((a) => this.est(a, scope));
    // namespaced functions (`sets.contains`, `lists.range`…) are calls without a receiver in cel-go
    const isNamespace = recv !== undefined && recv.op === 'id' && /Namespace$/.test(recv.checkedType?.name ?? '');
    const target = recv !== undefined && ri !== undefined && !isNamespace ? this.arg(recv, ri, scope) : undefined;
    const c = callCost(name, target, args.map((a, i) => this.arg(a, ais[i]!, scope)));
    const own = add(sum(ais.map((a) => a.cost)), isNamespace || ri === undefined ? ZERO : ri.cost);
    return { cost: add(own, c.cost), size: c.resultSize };
  }

  private macro(m: MacroParts, scope: Scope): Info {
    const ids = m.args.map((a) => (a.op === 'id' ? (a.args as string) : ''));
    if (m.name === 'has') {
      const sel = m.args[0];
      const operand = sel !== undefined && sel.op === '.' ? (sel.args as [AstNode])[0] : sel;
      return { cost: operand !== undefined ? this.est(operand, scope).cost : ZERO };
    }
    if (m.receiver === undefined) return { cost: fixed(1) };
    const r = this.est(m.receiver, scope);
    const isMap = m.receiver.checkedType?.kind === 'map';
    const count = this.sizeOf(m.receiver, r, scope) ?? UNKNOWN_SIZE;
    const child = (name: string, sub: string, size: Estimate | undefined): [string, Local] =>
      [name, { path: r.path !== undefined ? [...r.path, sub] : undefined, size }];
    const twoVar = (['all', 'exists', 'existsOne'].includes(m.name) && m.args.length === 3) || m.name.startsWith('transform');
    const inner = new Map(scope);
    if (twoVar && ids.length >= 2) {
      inner.set(...child(ids[0]!, isMap ? '@keys' : '@indices', undefined));
      inner.set(...child(ids[1]!, isMap ? '@values' : '@items', r.elem));
    } else if (ids[0] !== undefined) {
      inner.set(...child(ids[0], isMap ? '@keys' : '@items', isMap ? undefined : r.elem));
    }
    const bodies = m.args.slice(twoVar ? 2 : 1).map((b) => this.est(b, inner).cost);
    const [p = ZERO, q = ZERO] = bodies;
    let init = ZERO; let step: Estimate; let result = fixed(1); let size: Estimate | undefined;
    switch (m.name) {
      case 'all': step = add(p, fixed(3)); break;
      case 'exists': step = add(p, fixed(4)); break;
      case 'exists_one': case 'existsOne': step = add(p, fixed(2)); result = fixed(2); break;
      case 'map': init = fixed(LIST_CREATE); step = bodies.length === 2 ? add(add(p, q), fixed(12)) : add(p, fixed(12)); size = count; break;
      case 'filter': init = fixed(LIST_CREATE); step = add(p, fixed(13)); size = count; break;
      case 'transformList': init = fixed(LIST_CREATE); step = add(sum(bodies), fixed(12)); size = count; break;
      case 'transformMap': init = fixed(MAP_CREATE); step = add(sum(bodies), fixed(3)); size = count; break;
      case 'transformMapEntry': init = fixed(MAP_CREATE); step = add(sum(bodies), fixed(2)); break;
      case 'sortBy': {
        const sorted = add(add(byFactor(mul(count, count), 2), fixed(1)), fixed(LIST_CREATE));
        return { cost: add(add(add(r.cost, fixed(LIST_CREATE)), mul(count, add(p, fixed(12)))), sorted), size: count };
      }
      default: return { cost: add(add(r.cost, p), fixed(3)) };
    }
    return { cost: add(add(add(r.cost, init), result), mul(count, step)), size };
  }
}

/**
 * The estimated cost of a compiled program, as kube computes it when it validates a CRD rule or a
 * policy expression: the checked tree costed by cel-go's rules, sized by the variables' DeclTypes.
 */
export function estimateCost(program: Program): Estimate {
  return new Estimator(program.env.variables).est(program.ast, new Map()).cost;
}

/**
 * kube's message for a cost over its limit: `<what> exceeds budget by factor of 2.6x (try simplifying
 * the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`.
 */
export function costErrorMessage(description: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${description} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
