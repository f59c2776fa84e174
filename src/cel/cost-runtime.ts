// kube's runtime cost: every evaluated step costs what cel-go's cost tracker charges (an identifier or
// field selection 1, a call 1 or its size-dependent cost, a list literal 10, a map literal 30; `&&`,
// `||`, `?:` and constants nothing; a macro its loop condition and step per iteration), and evaluation
// stops with `operation cancelled: actual cost limit exceeded` past the limit. The charges are put
// on the checked tree once per program (wrapping each node's evaluation), so an evaluation without a
// limit pays a counter increment per node.
// Go counterparts: github.com/google/cel-go/interpreter/runtimecost.go, k8s.io/apiserver/pkg/cel/
// library/cost.go (CallCost).
import { Optional } from '@marcbachmann/cel-js';
import { REGEX_LENGTH, STRING_TRAVERSAL } from './cost-math.ts';
import { CelObject } from './values.ts';

/** kube's text when an evaluation exceeds its cost limit. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

export class CostLimitError extends Error {
  override readonly name = 'CostLimitError';
  constructor() { super(COST_LIMIT_EXCEEDED); }
}

export interface Tracker { cost: number; readonly limit: number }
let current: Tracker | undefined;

/**
 * The activation key an evaluation that may wait (on an authorizer) carries its tracker under: the
 * steps after the wait run in a later task, where `current` is not theirs, and find it through
 * their context. No CEL identifier can have this name.
 */
export const TRACKER_KEY = '#cost';

interface Lookup { getValue?(key: string): unknown }

/** Whether an evaluation is under way synchronously (else a charge belongs to one resumed after a wait). */
export const trackingNow = (): boolean => current !== undefined;

/** Adds `n` to the evaluation under way; throws CostLimitError past its limit. */
export function chargeCost(n: number): void {
  const t = current;
  if (t === undefined || n === 0) return;
  t.cost += n;
  if (t.cost > t.limit) throw new CostLimitError();
}

/** chargeCost for a step evaluated in the library context `ctx`: after a wait, the evaluation's own tracker. */
export function chargeCostIn(ctx: unknown, n: number): void {
  if (n === 0) return;
  const t = current ?? ((ctx as Lookup | undefined)?.getValue?.(TRACKER_KEY) as Tracker | undefined);
  if (t === undefined) return;
  t.cost += n;
  if (t.cost > t.limit) throw new CostLimitError();
}

/** Runs `fn` with a fresh tracker: its result or what it threw, the cost so far and the tracker (an async result goes on charging it). */
export function tracked<T>(limit: number, fn: (t: Tracker) => T): { result?: T; error?: unknown; cost: number; tracker: Tracker } {
  const saved = current;
  const t: Tracker = { cost: 0, limit };
  current = t;
  try {
    return { result: fn(t), cost: t.cost, tracker: t };
  } catch (error) {
    return { error, cost: t.cost, tracker: t };
  } finally {
    current = saved;
  }
}

/** cel-go's actualSize: code points of a string, bytes, elements of a list or map, else 1. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') { let n = 0; for (const _c of v) n++; return n; }
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Set || v instanceof Map) return v.size;
  if (v instanceof Optional) return v.hasValue() ? actualSize(v.value()) : 1;
  if (typeof v === 'object' && v !== null && v.constructor === Object) return Object.keys(v).length;
  return 1;
}

const ceilF = (x: number, f: number): number => Math.ceil(x * f);
const OPAQUE = (v: unknown): boolean => typeof v === 'object' && v !== null && !(v instanceof CelObject) &&
  !(v instanceof Map) && !Array.isArray(v) && !(v instanceof Set) && !(v instanceof Uint8Array) && v.constructor !== Object && !(v instanceof Date) &&
  /^Kube|Val$/.test(v.constructor.name);

/** What one call costs given its argument values (receiver first) and result. */
export function runtimeCallCost(name: string, args: readonly unknown[], result: unknown): number {
  const a0 = args[0];
  switch (name) {
    case 'check': return 350000;
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf':
      if (typeof a0 === 'string') return ceilF(actualSize(a0), STRING_TRAVERSAL);
      return [...(a0 as Iterable<unknown>)].reduce<number>((s, x) => s + 1 + (typeof x === 'string' ? ceilF(actualSize(x), STRING_TRAVERSAL) : 0), 0);
    case 'url': case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
    case 'startsWith': case 'endsWith': case 'quote': case 'format':
      return ceilF(actualSize(a0), STRING_TRAVERSAL);
    case 'ip': return typeof a0 === 'string' ? ceilF(actualSize(a0), STRING_TRAVERSAL) : 1;
    case 'isCanonical': return ceilF(actualSize(args[1]), 2 * STRING_TRAVERSAL);
    case 'replace': case 'split': return ceilF(actualSize(a0), 2 * STRING_TRAVERSAL);
    case 'join': return ceilF(actualSize(result), 2 * STRING_TRAVERSAL);
    case 'find': case 'findAll': case 'matches':
      return ceilF(1 + actualSize(a0), STRING_TRAVERSAL) * ceilF(actualSize(args[1]), REGEX_LENGTH);
    case 'contains':
      return typeof a0 === 'string' ? ceilF(actualSize(a0), STRING_TRAVERSAL) * ceilF(actualSize(args[1]), STRING_TRAVERSAL) : 1;
    // a CIDR or IP value has size 1 (kube's CallCost on actualSize)
    case 'containsIP': return 1 + (typeof args[1] === 'string' ? ceilF(actualSize(args[1]), STRING_TRAVERSAL) : 0);
    case 'containsCIDR': return 3 + (typeof args[1] === 'string' ? ceilF(actualSize(args[1]), STRING_TRAVERSAL) : 0);
    // the format's MaxRegexSize is 30 to 60 for the name formats; 60 taken
    case 'validate': return ceilF(1 + actualSize(args[1]), STRING_TRAVERSAL) * 15;
    case 'bytes': return typeof a0 === 'string' ? ceilF(actualSize(a0), STRING_TRAVERSAL) : 1;
    case 'string': return a0 instanceof Uint8Array ? ceilF(actualSize(a0), STRING_TRAVERSAL) : 1;
    case 'reverse': case 'slice': case 'range': return Array.isArray(result) ? result.length + 11 : 1;
    case 'flatten': return actualSize(a0) * (args.length === 2 ? Number(args[1]) : 1) + 11;
    case 'distinct': case 'sort': {
      const n = actualSize(a0);
      const f = n > 0 && typeof [...(a0 as Iterable<unknown>)][0] === 'string' ? 2.1 : 2;
      return Math.floor(n * n * f) + 11;
    }
    case '==': case '!=':
      if (OPAQUE(a0)) return 1;
      return ceilF(Math.min(actualSize(a0), actualSize(args[1])), STRING_TRAVERSAL);
    case '<': case '<=': case '>': case '>=':
      if (typeof a0 === 'string' || a0 instanceof Uint8Array) return ceilF(Math.min(actualSize(a0), actualSize(args[1])), STRING_TRAVERSAL);
      return 1;
    case '+':
      if (typeof a0 === 'string' || a0 instanceof Uint8Array) return ceilF(actualSize(a0) + actualSize(args[1]), STRING_TRAVERSAL);
      return 1;
    case 'in':
      return Array.isArray(args[1]) || args[1] instanceof Set ? actualSize(args[1]) : 1;
    default:
      return 1;
  }
}
