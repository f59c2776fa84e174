// The estimated cost of one function call, by kube's CostEstimator (k8s.io/apiserver/pkg/cel/library/
// cost.go EstimateCallCost), then cel-go's own estimates (checker/cost.go functionCost, ext/lists.go),
// else 1. Argument costs are added by the caller.
import { add, byFactor, fixed, mul, REGEX_LENGTH, STRING_TRAVERSAL, union, UNKNOWN_SIZE, LIST_CREATE, type Estimate, MAX_UINT64 } from './cost-math.ts';

/** What the estimator knows of an argument or receiver. */
export interface ArgInfo {
  /** The library type name (`string`, `list<int>`…), undefined when unchecked. */
  readonly type: string | undefined;
  /** Its computed size (cel-go's ComputedSize), or undefined. */
  readonly size: Estimate | undefined;
  /** Its literal value, if it is one. */
  readonly literal?: unknown;
  /** The size of its list elements, if known (kube's listElementNode). */
  readonly elemSize: Estimate | undefined;
}

export interface CallCost {
  readonly cost: Estimate;
  readonly resultSize?: Estimate | undefined;
}

const sizeOf = (a: ArgInfo | undefined): Estimate => a?.size ?? UNKNOWN_SIZE;
const ONE = fixed(1);
const isStringy = (t: string | undefined): boolean => t === 'string' || t === 'bytes';
const elemType = (t: string | undefined): string | undefined => /^list<(.*)>$/.exec(t ?? '')?.[1];
const intLiteral = (a: ArgInfo | undefined, dflt: number): number =>
  typeof a?.literal === 'bigint' ? (a.literal < 0n ? 0 : Number(a.literal)) : dflt;

function allocatingList(factor: number, size: Estimate): CallCost {
  return { cost: add(add(byFactor(size, factor), ONE), fixed(LIST_CREATE)), resultSize: size };
}

function kubeCost(name: string, target: ArgInfo | undefined, args: readonly ArgInfo[]): CallCost | undefined {
  switch (name) {
    case 'check': return { cost: fixed(350000) };
    case 'serviceAccount': case 'path': case 'group': case 'resource': case 'subresource': case 'namespace': case 'name':
    case 'allowed': case 'reason': case 'error': case 'errored':
      return { cost: ONE };
    case 'fieldSelector': case 'labelSelector':
      if (args.length === 1) {
        // kube: parsing is linear; a selector of n bytes holds at most n/2 requirements, each a
        // struct and a list
        const sz = sizeOf(args[0]);
        return { cost: add(add(fixed(LIST_CREATE), byFactor(sz, STRING_TRAVERSAL)), byFactor(byFactor(sz, 0.5), LIST_CREATE + 40)) };
      }
      break;
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf':
      if (target !== undefined) {
        if (elemType(target.type) !== undefined) {
          let el = ONE;
          if (isStringy(elemType(target.type))) el = add(el, byFactor(target.elemSize ?? UNKNOWN_SIZE, STRING_TRAVERSAL));
          return { cost: mul(sizeOf(target), el) };
        }
        return { cost: byFactor(sizeOf(target), STRING_TRAVERSAL) };
      }
      break;
    case 'url':
      if (args.length === 1) return { cost: byFactor(sizeOf(args[0]), STRING_TRAVERSAL), resultSize: sizeOf(args[0]) };
      break;
    case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
      if (target !== undefined) return { cost: byFactor(sizeOf(target), STRING_TRAVERSAL), resultSize: sizeOf(target) };
      break;
    case 'replace':
      if (target !== undefined && args.length >= 2) {
        const sz = sizeOf(target);
        const from = sizeOf(args[0]);
        const to = sizeOf(args[1]);
        let countMax: number; let keepMax = 0; let countMin: number; let keepMin = 0;
        if (from.min === 0) { countMax = sz.max < MAX_UINT64 ? sz.max + 1 : sz.max; keepMax = sz.max; }
        else if (to.max <= from.min) { countMax = 0; keepMax = sz.max; }
        else countMax = Math.ceil(sz.max / from.min);
        if (from.max === 0) { countMin = sz.min < MAX_UINT64 ? sz.min + 1 : sz.min; keepMin = sz.min; }
        else if (from.max <= to.min) { countMin = 0; keepMin = sz.min; }
        else countMin = Math.ceil(sz.min / from.max);
        const size = add(mul({ min: countMin, max: countMax }, to), { min: keepMin, max: keepMax });
        return { cost: byFactor(sz, 2 * STRING_TRAVERSAL), resultSize: size };
      }
      break;
    case 'split':
      if (target !== undefined) {
        const sz = sizeOf(target);
        const max = args.length > 1 && typeof args[1]?.literal === 'bigint' ? Number(args[1].literal) : sz.max;
        return { cost: byFactor(sz, 2 * STRING_TRAVERSAL), resultSize: { min: 0, max } };
      }
      break;
    case 'join':
      if (target !== undefined) {
        const list = sizeOf(target);
        let sz = mul(list, target.elemSize ?? UNKNOWN_SIZE);
        if (args.length > 0) {
          sz = add(sz, mul(sizeOf(args[0]), { min: list.min > 0 ? list.min - 1 : 0, max: list.max > 0 ? list.max - 1 : 0 }));
        }
        return { cost: byFactor(sz, STRING_TRAVERSAL), resultSize: sz };
      }
      break;
    case 'find': case 'findAll':
      if (target !== undefined && args.length >= 1) {
        const sz = sizeOf(target);
        const str = byFactor(add(sz, ONE), STRING_TRAVERSAL);
        return { cost: mul(str, byFactor(sizeOf(args[0]), REGEX_LENGTH)), resultSize: { min: 0, max: sz.max } };
      }
      break;
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
      if (args.length >= 1) return { cost: byFactor(sizeOf(args[0]), STRING_TRAVERSAL) };
      break;
    case 'ip':
      if (target !== undefined) return { cost: ONE };
      if (args.length >= 1) return { cost: byFactor(sizeOf(args[0]), STRING_TRAVERSAL) };
      break;
    case 'isCanonical':
      if (args.length >= 1) return { cost: byFactor(sizeOf(args[0]), 2 * STRING_TRAVERSAL) };
      break;
    case 'masked': case 'prefixLength': case 'family': case 'isUnspecified': case 'isLoopback': case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast': case 'isGlobalUnicast':
      return { cost: ONE };
    case 'containsIP': case 'containsCIDR':
      if (args.length >= 1) {
        const sz = { min: 4, max: 16 };
        let c = byFactor(add(sz, sz), STRING_TRAVERSAL);
        if (name === 'containsCIDR') c = add(add(c, byFactor(sz, STRING_TRAVERSAL)), ONE);
        if (args[0]?.type === 'string') c = add(c, byFactor(sizeOf(args[0]), STRING_TRAVERSAL));
        return { cost: c };
      }
      break;
    case 'validate':
      if (args.length >= 1) return { cost: byFactor(byFactor(sizeOf(args[0]), STRING_TRAVERSAL), 128 * REGEX_LENGTH) };
      break;
    case 'named':
      return { cost: ONE };
    case 'sign': case 'asInteger': case 'isInteger': case 'asApproximateFloat': case 'isGreaterThan': case 'isLessThan': case 'compareTo':
    case 'add': case 'sub': case 'major': case 'minor': case 'patch':
    case 'getScheme': case 'getHostname': case 'getHost': case 'getPort': case 'getEscapedPath': case 'getQuery':
      return { cost: ONE };
  }
  return undefined;
}

/** cel-go's estimates for its own functions (std library and ext lists). */
function celGoCost(name: string, target: ArgInfo | undefined, args: readonly ArgInfo[]): CallCost | undefined {
  switch (name) {
    case 'format':
      if (target !== undefined) return { cost: byFactor(sizeOf(target), STRING_TRAVERSAL) };
      break;
    case 'bytes':
      if (target === undefined && args[0]?.type === 'string') {
        const sz = sizeOf(args[0]);
        return { cost: byFactor(sz, STRING_TRAVERSAL), resultSize: { min: sz.min, max: Math.min(sz.max * 4, MAX_UINT64) } };
      }
      break;
    case 'string':
      if (target === undefined && args[0]?.type === 'bytes') {
        const sz = sizeOf(args[0]);
        return { cost: byFactor(sz, STRING_TRAVERSAL), resultSize: { min: Math.floor(sz.min / 4), max: sz.max } };
      }
      break;
    case 'quote':
      if (args.length === 1) {
        const sz = sizeOf(args[0]);
        return { cost: byFactor(sz, STRING_TRAVERSAL), resultSize: { min: sz.min + 2, max: Math.min(sz.max * 2 + 2, MAX_UINT64) } };
      }
      break;
    case 'startsWith': case 'endsWith':
      if (args.length === 1) return { cost: byFactor(sizeOf(args[0]), STRING_TRAVERSAL) };
      break;
    case 'matches': {
      const str = target ?? args[0];
      const re = target !== undefined ? args[0] : args[1];
      if (str !== undefined && re !== undefined) {
        return { cost: mul(byFactor(add(sizeOf(str), ONE), STRING_TRAVERSAL), byFactor(sizeOf(re), REGEX_LENGTH)) };
      }
      break;
    }
    case 'contains':
      if (target !== undefined && args.length === 1) {
        return { cost: mul(byFactor(sizeOf(target), STRING_TRAVERSAL), byFactor(sizeOf(args[0]), STRING_TRAVERSAL)) };
      }
      break;
    case 'slice':
      if (target !== undefined && args.length === 2) {
        const end = intLiteral(args[1], sizeOf(target).max);
        const start = intLiteral(args[0], 0);
        // Go computes end-start in uint64: a start past the end wraps around to a huge size
        return allocatingList(1, fixed(end >= start ? end - start : MAX_UINT64));
      }
      break;
    case 'range':
      if (target === undefined && args.length === 1) return allocatingList(1, fixed(intLiteral(args[0], MAX_UINT64)));
      break;
    case 'reverse':
      if (target !== undefined) return allocatingList(1, sizeOf(target));
      break;
    case 'flatten':
      if (target !== undefined) return allocatingList(args.length === 1 ? intLiteral(args[0], MAX_UINT64) : 1, sizeOf(target));
      break;
    case 'distinct':
      if (target !== undefined) return allocatingList(2, mul(sizeOf(target), sizeOf(target)));
      break;
    case 'sort':
      if (target !== undefined) {
        return allocatingList(isStringy(elemType(target.type)) ? 2 + STRING_TRAVERSAL : 2, mul(sizeOf(target), sizeOf(target)));
      }
      break;
  }
  return undefined;
}

/** The cost of calling `name` (excluding its arguments' own costs). */
export function callCost(name: string, target: ArgInfo | undefined, args: readonly ArgInfo[]): CallCost {
  return kubeCost(name, target, args) ?? celGoCost(name, target, args) ?? { cost: ONE };
}

/** cel-go's cost of ==, != and ordering of strings/bytes: a tenth of the shorter operand's size. */
export function compareCost(a: ArgInfo, b: ArgInfo): Estimate {
  const smallestMax = Math.min(sizeOf(a).max, sizeOf(b).max);
  return byFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL);
}

export { union };
