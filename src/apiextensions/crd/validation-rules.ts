// The CRD-side checks of x-kubernetes-validations (ValidateCustomResourceDefinitionOpenAPISchema's
// rule part): each rule's own fields (rule, message, messageExpression, reason, fieldPath), then,
// when the schema is otherwise valid, its compilation (kube's compile errors), its use of oldSelf
// (only where an old value can be correlated: not below set or atomic lists), optionalOldSelf only
// with oldSelf, and the estimated cost per expression and for the whole schema.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/{validation.go,cel_validation.go}.
import {
  forbidden, GoSyntax, internalError, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { compileRules, type CompilationResult } from '../schema/cel/compilation.ts';
import { validFieldPath } from '../schema/cel/field-path.ts';
import type { JSONSchemaProps, ValidationRule } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;

/** StaticEstimatedCostLimit and StaticEstimatedCRDCostLimit of kube. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
const MAX_UINT64 = 18446744073709551615;
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export interface RuleValidationOptions {
  /** Whether the rest of the schema validated without errors (kube compiles rules only then). */
  readonly compile: boolean;
  /** The version's schema is unchanged by this update: per-expression cost limits are not enforced again. */
  readonly suppressPerExpressionCost?: boolean;
}

const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/** Go's %f and %.1f of the factor, as kube's getCostErrorMessage words it. */
export function costErrorMessage(what: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The rule as kube prints the ValidationRule struct in a cause: JSON with Go's field names and HTML escaping. */
function ruleValue(r: DeepReadonly<ValidationRule>): GoSyntax {
  const json = JSON.stringify({
    Rule: r.rule ?? '', Message: r.message ?? '', MessageExpression: r.messageExpression ?? '',
    Reason: r.reason ?? null, FieldPath: r.fieldPath ?? '', OptionalOldSelf: r.optionalOldSelf ?? null,
  });
  return new GoSyntax(json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** The checks of one rule's fields that need no compilation. */
function staticErrors(s: Schema, r: DeepReadonly<ValidationRule>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rule = (r.rule ?? '').trim();
  const message = r.message ?? '';
  const msg = message.trim();
  if (rule === '') errs.push(required(p.child('rule'), 'rule is not specified'));
  else if (message !== '' && msg === '') errs.push(invalid(p.child('message'), message, 'must be non-empty if specified'));
  else if (hasNewlines(msg)) errs.push(invalid(p.child('message'), message, 'must not contain line breaks'));
  else if (hasNewlines(rule) && msg === '') errs.push(required(p.child('message'), 'message must be specified if rule contains line breaks'));
  const me = r.messageExpression ?? '';
  if (me !== '' && me.trim() === '') errs.push(required(p.child('messageExpression'), 'messageExpression must be non-empty if specified'));
  if (r.reason !== undefined && r.reason !== null && !REASONS.includes(r.reason)) errs.push(notSupported(p.child('reason'), r.reason, REASONS));
  const fp = r.fieldPath ?? '';
  if (fp !== '' && fp.trim() === '') errs.push(invalid(p.child('fieldPath'), fp, 'must be non-empty if specified'));
  if (hasNewlines(fp)) errs.push(invalid(p.child('fieldPath'), fp, 'must not contain line breaks'));
  if (fp !== '') {
    try { validFieldPath(fp, s); } catch { errs.push(invalid(p.child('fieldPath'), fp, 'must be a valid path')); }
  }
  return errs;
}

/** The largest number of elements one value of `s` holds: items, map entries, or 1; undefined when unbounded. */
function maxElements(s: Schema): number | undefined {
  if (s.type === 'object') return s.additionalProperties !== undefined ? (s.maxProperties === undefined ? undefined : Math.max(0, s.maxProperties)) : 1;
  if (s.type === 'array') return s.maxItems === undefined ? undefined : Math.max(0, s.maxItems);
  return 1;
}

const times = (a: number, b: number): number => (a === 0 ? 0 : Math.min(a * b, MAX_UINT64));

interface Walk {
  readonly opts: RuleValidationOptions;
  total: number;
  /** The (at most four) costliest expressions over 1% of the CRD limit. */
  mostExpensive: { path: FieldPath; cost: number }[];
}

function observe(w: Walk, path: FieldPath, cost: number): void {
  w.total = Math.min(w.total + cost, MAX_UINT64);
  if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
  w.mostExpensive.push({ path, cost });
  w.mostExpensive.sort((a, b) => b.cost - a.cost);
  w.mostExpensive.length = Math.min(w.mostExpensive.length, 4);
}

/** Every rule error of the schema `root` (the version's openAPIV3Schema at `path`). */
export function validateValidationRules(root: Schema, path: FieldPath, opts: RuleValidationOptions): FieldError[] {
  const w: Walk = { opts, total: 0, mostExpensive: [] };
  const { schemaErrors, celErrors } = visit(w, root, path, { isResourceRoot: true, cardinality: 1, uncorrelatable: undefined });
  const errs = [...schemaErrors, ...celErrors];
  if (opts.compile && w.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of w.mostExpensive) errs.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', w.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errs;
}

interface NodeContext {
  readonly isResourceRoot: boolean;
  /** How many times a value of this node can occur in one object; undefined when unbounded. */
  readonly cardinality: number | undefined;
  /** The outermost list whose items cannot be paired with old items, above this node. */
  readonly uncorrelatable: FieldPath | undefined;
}

function child(ctx: NodeContext, parent: Schema, isEmbedded: boolean, uncorrelatable: FieldPath | undefined): NodeContext {
  const n = maxElements(parent);
  return {
    isResourceRoot: isEmbedded, uncorrelatable: ctx.uncorrelatable ?? uncorrelatable,
    cardinality: ctx.cardinality === undefined || n === undefined ? undefined : times(ctx.cardinality, n),
  };
}

function visit(w: Walk, s: Schema, path: FieldPath, ctx: NodeContext): { schemaErrors: FieldError[]; celErrors: FieldError[] } {
  const schemaErrors: FieldError[] = [];
  const celErrors: FieldError[] = [];
  const rules = s['x-kubernetes-validations'] ?? [];
  const here = ctx;
  const add = (r: { schemaErrors: FieldError[]; celErrors: FieldError[] }): void => { schemaErrors.push(...r.schemaErrors); celErrors.push(...r.celErrors); };
  const ap = s.additionalProperties;
  if (typeof ap === 'object') add(visit(w, ap, path.child('additionalProperties'), child(here, s, ap['x-kubernetes-embedded-resource'] === true, undefined)));
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    add(visit(w, p, path.child('properties').key(k), child(here, s, p['x-kubernetes-embedded-resource'] === true, undefined)));
  }
  if (s.items !== undefined) {
    // Only list-type=map items pair with old items; elsewhere oldSelf has nothing to compare with.
    const unpaired = s['x-kubernetes-list-type'] !== 'map' ? path : undefined;
    add(visit(w, s.items, path.child('items'), child(here, s, s.items['x-kubernetes-embedded-resource'] === true, unpaired)));
  }
  const rp = path.child('x-kubernetes-validations');
  rules.forEach((r, i) => schemaErrors.push(...staticErrors(s, r, rp.index(i))));
  // Rules compile only on a schema valid at this level and below (kube's types need a valid schema).
  if (rules.length > 0 && schemaErrors.length === 0 && w.opts.compile) celErrors.push(...compileErrors(w, s, rp, rules, here));
  return { schemaErrors, celErrors };
}

function compileErrors(w: Walk, s: Schema, rp: FieldPath, rules: readonly DeepReadonly<ValidationRule>[], ctx: NodeContext): FieldError[] {
  const errs: FieldError[] = [];
  let results: readonly CompilationResult[];
  try {
    results = compileRules(s, ctx.isResourceRoot);
  } catch (err) {
    return [internalError(rp, err)];
  }
  results.forEach((cr, i) => {
    const r = rules[i];
    if (r === undefined) return;
    const p = rp.index(i);
    const cost = ctx.cardinality !== undefined ? times(cr.maxCost, ctx.cardinality) : times(cr.maxCost, cr.maxCardinality);
    if (w.opts.suppressPerExpressionCost !== true && cost > STATIC_ESTIMATED_COST_LIMIT) {
      errs.push(forbidden(p.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    observe(w, p.child('rule'), cost);
    if (cr.error !== undefined) {
      errs.push(cr.error.type === 'required' ? required(p.child('rule'), cr.error.detail) : invalid(p.child('rule'), ruleValue(r), cr.error.detail));
    }
    if (cr.messageExpressionError !== undefined) {
      errs.push(invalid(p.child('messageExpression'), ruleValue(r), cr.messageExpressionError.detail));
    } else if (cr.hasMessageExpression) {
      if (w.opts.suppressPerExpressionCost !== true && cr.messageExpressionMaxCost > STATIC_ESTIMATED_COST_LIMIT) {
        errs.push(forbidden(p.child('messageExpression'), costErrorMessage('estimated messageExpression cost', cr.messageExpressionMaxCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      observe(w, p.child('messageExpression'), cr.messageExpressionMaxCost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatable !== undefined) {
        errs.push(invalid(p.child('rule'), r.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable.toString()}`));
      }
    } else if (r.optionalOldSelf !== undefined && r.optionalOldSelf !== null) {
      errs.push(invalid(p.child('optionalOldSelf'), r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}
