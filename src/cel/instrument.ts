// Puts cel-go's runtime cost charges on a checked tree (see cost-runtime.ts): each node's evaluation
// is wrapped to charge its own cost; calls charge by their argument values; macros charge their loop
// condition and accumulator steps per iteration, as cel-go's expansions of them cost.
// No Go counterpart (cel-go observes its planned program instead).
import { argsOf, callName, receiverOf, type AstNode } from './ast.ts';
import { actualSize, chargeCost, chargeCostIn, CostLimitError, runtimeCallCost, trackingNow } from './cost-runtime.ts';

type Evaluate = (ev: unknown, ast: unknown, ctx: unknown) => unknown;
interface Meta { readonly evaluate?: Evaluate; readonly alternate?: AstNode & { evaluate: Evaluate }; readonly macro?: { evaluate: Evaluate } }
type Wrappable = AstNode & { evaluate: Evaluate; readonly meta: Meta };

/** The node's own evaluation, as the library would dispatch it. */
function targetOf(n: Wrappable): Evaluate | undefined {
  const meta = n.meta;
  if (meta.alternate !== undefined) { const alt = meta.alternate; return (ev, _a, ctx) => alt.evaluate(ev, alt, ctx); }
  if (meta.macro !== undefined) { const m = meta.macro; return (ev, _a, ctx) => m.evaluate(ev, m, ctx); }
  return meta.evaluate;
}

/** Charges `cost(result)` after each evaluation of `n` (and `before` ahead of it). */
function wrap(n: AstNode, cost: (result: unknown) => number, before = 0): void {
  const w = n as Wrappable;
  // a node wrapped already (a macro's receiver or body) keeps that wrapper inside this one
  const target = Object.hasOwn(w, 'evaluate') ? w.evaluate : targetOf(w);
  if (target === undefined) return;
  w.evaluate = (ev, ast, ctx) => {
    if (before !== 0) chargeCostIn(ctx, before);
    let r: unknown;
    try {
      r = target(ev, ast, ctx);
    } catch (err) {
      // cel-go carries an error on as a value: the step that produced it is still charged
      if (!(err instanceof CostLimitError)) chargeCostIn(ctx, cost(undefined));
      throw err;
    }
    // A step waiting on an authorizer is charged once it has its value.
    if (r instanceof Promise) return r.then((v: unknown) => { chargeCostIn(ctx, cost(v)); return v; });
    chargeCostIn(ctx, cost(r));
    return r;
  };
}

const isAttribute = (n: AstNode): boolean =>
  n.op === 'id' || ((n.op === '.' || n.op === '[]') && isAttribute((n.args as AstNode[])[0]!) && (n.op === '.' || (n.args as AstNode[])[1]!.op === 'value'));

function attributeNodes(n: AstNode, out: Set<AstNode>): void {
  out.add(n);
  if (n.op !== 'id') attributeNodes((n.args as AstNode[])[0]!, out);
}

const isConstant = (n: AstNode): boolean =>
  n.op === 'value' || ((n.op === 'list' || n.op === 'map') && (n.args as unknown[]).flat().every((x) => isConstant(x as AstNode)));

/** Per-iteration charges of a macro's body arguments: [charge(result) for each argument after the variables]. */
function macroCharges(name: string, nBodies: number): ((r: unknown) => number)[] | undefined {
  switch (name) {
    case 'all': return [() => 3];
    case 'exists': return [() => 4];
    case 'exists_one': case 'existsOne': return [(r) => (r === true ? 2 : 0)];
    case 'map': case 'transformList': return nBodies === 2 ? [() => 0, () => 12] : [() => 12];
    case 'filter': return [(r) => (r === true ? 13 : 0)];
    case 'transformMap': return nBodies === 2 ? [() => 0, () => 3] : [() => 3];
    case 'transformMapEntry': return nBodies === 2 ? [() => 0, () => 2] : [() => 2];
    case 'sortBy': return [() => 12];
    default: return undefined;
  }
}

const RESULT_COST: Readonly<Record<string, number>> = { exists_one: 2, existsOne: 2 };
const BREAK_COST: Readonly<Record<string, number>> = { all: 2, exists: 3 };

/** Wraps every node of a checked tree with its runtime charges. Call once per program. */
export function instrument(root: AstNode): void {
  const free = new Set<AstNode>();
  const visit = (n: AstNode): void => {
    const meta = (n as Wrappable).meta as Meta | undefined;
    const name = callName(n);
    if (name !== undefined && meta !== undefined && (meta.alternate !== undefined || meta.macro !== undefined)) {
      visitMacro(n, name);
      return;
    }
    switch (n.op) {
      case 'value': return;
      case 'id':
        if (meta?.alternate === undefined && !free.has(n)) wrap(n, () => 1);
        return;
      case '.': case '.?':
        if (!free.has(n)) wrap(n, () => 1);
        visit((n.args as AstNode[])[0]!);
        return;
      case '[]': case '[?]': {
        const [c, i] = n.args as [AstNode, AstNode];
        if (!free.has(n)) wrap(n, () => 1);
        if (i.op === 'id') free.add(i);
        visit(c); visit(i);
        return;
      }
      case '&&': case '||':
        for (const c of n.args as AstNode[]) visit(c);
        return;
      case '?:': {
        const [c, t, f] = n.args as [AstNode, AstNode, AstNode];
        for (const b of [t, f]) if (isAttribute(b)) attributeNodes(b, free);
        visit(c); visit(t); visit(f);
        return;
      }
      case 'list': case 'map':
        if (!isConstant(n)) wrap(n, () => 0, n.op === 'list' ? 10 : 30);
        for (const c of (n.args as unknown[]).flat() as AstNode[]) visit(c);
        return;
      case 'call': case 'rcall': {
        const recv = receiverOf(n);
        const isNs = recv !== undefined && recv.op === 'id' && /Namespace$/.test(recv.checkedType?.name ?? '');
        wrapHandle(n, name!, isNs);
        if (recv !== undefined && !isNs) visit(recv);
        for (const a of argsOf(n)) visit(a);
        return;
      }
      case '!_': case '-_':
        wrapHandle(n, n.op, false);
        visit(n.args as AstNode);
        return;
      default:
        wrapHandle(n, n.op, false);
        for (const c of n.args as AstNode[]) visit(c);
    }
  };

  const visitMacro = (n: AstNode, name: string): void => {
    const args = argsOf(n);
    const recv = receiverOf(n);
    if (name === 'has') {
      // cel-go charges the operand of a presence test, not the test (widenHas evaluates the operand)
      const sel = args[0];
      if (sel !== undefined && sel.op === '.') visit((sel.args as AstNode[])[0]!);
      return;
    }
    const vars = name.startsWith('transform') || (['all', 'exists', 'existsOne'].includes(name) && args.length === 3) ? 2 : 1;
    const bodies = args.slice(vars);
    const charges = macroCharges(name, bodies.length);
    let evaluated = 0;
    let size = 0;
    if (recv !== undefined) {
      wrap(recv, (r) => { size = actualSize(r); return 0; });
      visit(recv);
    }
    bodies.forEach((b, i) => {
      const c = charges?.[i];
      if (c !== undefined) wrap(b, (r) => { if (i === 0) evaluated++; return c(r); });
      visit(b);
    });
    const w = n as Wrappable;
    const target = Object.hasOwn(w, 'evaluate') ? w.evaluate : targetOf(w);
    if (target === undefined) return;
    w.evaluate = (ev, ast, ctx) => {
      const saved = evaluated;
      evaluated = 0;
      try {
        const r = target(ev, ast, ctx);
        const broke = evaluated < size ? (BREAK_COST[name] ?? 0) : 0;
        chargeCostIn(ctx, (RESULT_COST[name] ?? 1) + broke);
        return r;
      } finally {
        evaluated = saved;
      }
    };
  };

  visit(root);
}

/**
 * Charges a call by its values: the library calls a node's handle with the evaluated operands. A
 * call whose operand failed is charged 1, as cel-go calls it with the error.
 */
function wrapHandle(n: AstNode, name: string, namespaced: boolean): void {
  const orig = n.handle;
  if (typeof orig !== 'function') return;
  let reached = false;
  wrap(n, () => (reached ? 0 : 1));
  const w = n as Wrappable;
  const inner = w.evaluate;
  // Charges of calls made after a wait (no evaluation under way), in call order: each evaluation
  // of this node whose operands waited takes the next one once its value is there.
  const deferred: number[] = [];
  // The context of this node's evaluation while it runs (the handle, called within it, charges there).
  let within: { ctx: unknown } | undefined;
  w.evaluate = (ev, ast, ctx) => {
    reached = false;
    const saved = within;
    within = { ctx };
    let r: unknown;
    try {
      r = inner(ev, ast, ctx);
    } finally {
      within = saved;
    }
    if (!(r instanceof Promise) || reached) return r;
    return r.then((v: unknown) => { const c = deferred.shift(); if (c !== undefined) chargeCostIn(ctx, c); return v; });
  };
  const binary = !['call', 'rcall', '!_', '-_'].includes(n.op);
  const unary = n.op === '!_' || n.op === '-_';
  n.handle = (...params: unknown[]): unknown => {
    reached = true;
    const r = (orig as (...p: unknown[]) => unknown)(...params);
    let values: unknown[];
    if (binary) values = [params[0], params[1]];
    else if (unary) values = [params[0]];
    else values = params[0] as unknown[];
    if (namespaced) values = values.slice(1);
    const c = r instanceof Promise && name !== 'check' ? 1 : runtimeCallCost(name, values, r);
    if (trackingNow()) chargeCost(c);
    else if (within !== undefined) chargeCostIn(within.ctx, c);
    else deferred.push(c);
    return r;
  };
}
