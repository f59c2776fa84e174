// Runs a custom resource's x-kubernetes-validations: a tree parallel to the schema holding each
// node's compiled rules, walked with the object (and on update its old value: object properties and
// map keys pair with the old ones, list-type=map items by their keys, other list items never).
// A rule runs on every non-null value of its node; a transition rule (oldSelf) only where an old
// value exists, unless optionalOldSelf. Failures read as kube's: the message, or messageExpression's
// result, or "failed rule: <rule>", at the node or its fieldPath, as Invalid or the rule's reason;
// runtime errors and the per-call and per-object cost budgets with kube's texts. On update, the
// error of a non-transition rule on a value left unchanged is a warning instead (ratcheting).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go.
import {
  duplicate, FieldPath, forbidden, formatFieldError, internalError, invalid, OMIT_VALUE, required, type FieldError,
} from '../../../apimachinery/errors/field-errors.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import {
  evaluate, MaxEvaluatedMessageExpressionSizeBytes, PerCallLimit, RuntimeCELCostBudget, toCelValue,
} from '../../../cel/index.ts';
import { optionalNone, optionalOf } from '../../../cel/optional-value.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { JSONSchemaProps, ValidationRule } from '../../v1/types.ts';
import { makeMapList, type CorrelatedObject } from '../correlation.ts';
import { compileRules, nodeEnvironments, type CompilationResult, type NodeEnvironments } from './compilation.ts';

type Schema = DeepReadonly<JSONSchemaProps>;
type Path = FieldPath | undefined;
type Obj = Readonly<Record<string, unknown>>;

/** The x-kubernetes-validations of a schema, compiled once. */
export interface RuleValidator {
  /**
   * The rule errors of `obj` (the whole custom resource); `old` and `correlation` on update. Errors
   * a ratcheted (unchanged) value raises go to ctx.warnings instead.
   */
  validate(ctx: RequestContext, obj: Obj, old: Obj | undefined, correlation: CorrelatedObject | undefined): FieldError[];
}

/** kube's nil field path (a rule on the resource root) prints as "<nil>". */
const fieldOf = (p: Path): string => p?.toString() ?? '<nil>';
const child = (p: Path, name: string): FieldPath => (p === undefined ? FieldPath.root(name) : p.child(name));
const keyOf = (p: Path, k: string): FieldPath => (p ?? FieldPath.root('')).key(k);
const indexOf = (p: Path, i: number): FieldPath => (p ?? FieldPath.root('')).index(i);
const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where ratcheting stands: the node's pairing with its old value, or the nearest ancestor's. */
interface Ratchet { readonly current?: CorrelatedObject | undefined; readonly nearest?: CorrelatedObject | undefined }

function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (r.current === undefined) return r;
  // apiVersion and kind are the request's on both objects: never ratcheted.
  if (r.nearest === undefined && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), nearest: r.current };
}
function ratchetIndex(r: Ratchet, i: number): Ratchet {
  return r.current === undefined ? r : { current: r.current.index(i), nearest: r.current };
}
const shouldRatchet = (r: Ratchet): boolean => (r.current ?? r.nearest)?.cachedDeepEqual() === true;

/** The budget left for this object's rules; negative once exhausted (nothing more runs). */
interface Run { readonly ctx: RequestContext; budget: number; readonly errs: FieldError[] }

const has = (s: Schema | undefined): boolean => s !== undefined && ((s['x-kubernetes-validations'] ?? []).length > 0 || has(s.items) ||
  (typeof s.additionalProperties === 'object' && has(s.additionalProperties)) || Object.values(s.properties ?? {}).some(has));

class Node {
  readonly properties = new Map<string, Node>();
  readonly items: Node | undefined;
  readonly additionalProperties: Node | undefined;
  readonly rules: readonly CompilationResult[];
  readonly compilationError: string | undefined;
  private readonly envs: NodeEnvironments | undefined;

  constructor(readonly schema: Schema, readonly isResourceRoot: boolean, isRoot = false) {
    const own = (schema['x-kubernetes-validations'] ?? []).length > 0;
    this.envs = own ? nodeEnvironments(schema, isResourceRoot) : undefined;
    let rules: CompilationResult[] = [];
    let error: string | undefined;
    // Below the root, a value without a CEL type (no type, only preserved unknown fields) is left out.
    if (isRoot || this.envs !== undefined) {
      try { rules = compileRules(schema, isResourceRoot, this.envs); } catch (err) { error = (err as Error).message; }
    }
    this.rules = rules;
    this.compilationError = error;
    const sub = (s: Schema | undefined): Node | undefined => (s !== undefined && has(s) ? new Node(s, s['x-kubernetes-embedded-resource'] === true) : undefined);
    this.items = sub(schema.items);
    this.additionalProperties = typeof schema.additionalProperties === 'object' ? sub(schema.additionalProperties) : undefined;
    for (const [k, p] of Object.entries(schema.properties ?? {})) {
      const n = sub(p);
      if (n !== undefined) this.properties.set(k, n);
    }
  }

  validate(run: Run, path: Path, obj: unknown, old: unknown, r: Ratchet): void {
    if (obj === null || obj === undefined || run.budget < 0) return;
    this.validateExpressions(run, path, obj, old ?? undefined, r);
    if (run.budget < 0) return;
    if (Array.isArray(obj)) {
      if (this.items === undefined) return;
      const oldItems = makeMapList(this.schema, old);
      for (let i = 0; i < obj.length && run.budget >= 0; i++) {
        this.items.validate(run, indexOf(path, i), obj[i], oldItems?.get(obj[i]), ratchetIndex(r, i));
      }
    } else if (isObject(obj)) {
      const oldMap = isObject(old) ? old : undefined;
      // Every map type (granular, atomic) pairs values by key.
      for (const [k, v] of Object.entries(obj)) {
        if (run.budget < 0) return;
        if (this.additionalProperties !== undefined) this.additionalProperties.validate(run, keyOf(path, k), v, oldMap?.[k], ratchetKey(r, k));
        const p = this.properties.get(k);
        if (p !== undefined) p.validate(run, child(path, k), v, oldMap?.[k], ratchetKey(r, k));
      }
    }
  }

  private validateExpressions(run: Run, path: Path, obj: unknown, old: unknown, r: Ratchet): void {
    const type = this.schema.type ?? '';
    if (this.compilationError !== undefined) {
      run.errs.push(invalid(fieldOf(path), type, `rule compiler initialization error: ${this.compilationError}`));
      return;
    }
    const envs = this.envs;
    if (this.rules.length === 0 || envs === undefined) return;
    if (run.budget <= 0) {
      run.errs.push(invalid(fieldOf(path), type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      run.budget = -1;
      return;
    }
    const self = toCelValue(obj, envs.self);
    const oldSelf = old === undefined ? undefined : toCelValue(old, envs.self);
    for (const compiled of this.rules) {
      const rule = compiled.rule;
      if (compiled.error !== undefined) {
        run.errs.push(invalid(fieldOf(path), type, `rule compile error: ${compiled.error.detail}`));
        continue;
      }
      const program = compiled.program;
      if (program === undefined) continue;
      const optional = rule.optionalOldSelf === true;
      // A transition rule needs an old value to compare with, unless it takes oldSelf as optional.
      if (compiled.usesOldSelf && oldSelf === undefined && !optional) continue;
      const activation = optional
        ? { self, oldSelf: oldSelf === undefined ? optionalNone() : optionalOf(oldSelf) }
        : { self, ...(oldSelf === undefined ? {} : { oldSelf }) };
      const result = evaluate(program, activation, { costLimit: PerCallLimit });
      if (result.cost > run.budget) {
        run.errs.push(invalid(fieldOf(path), type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
        run.budget = -1;
        return;
      }
      run.budget -= result.cost;
      if (result.error !== undefined) {
        const detail = result.error.detail;
        if (detail.startsWith('no such overload')) {
          run.errs.push(invalid(fieldOf(path), type, `'${detail}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
        } else if (detail.startsWith('operation cancelled: actual cost limit exceeded')) {
          run.errs.push(invalid(fieldOf(path), type, `'${detail}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
          run.budget = -1;
          return;
        } else {
          run.errs.push(invalid(fieldOf(path), type, `${detail} evaluating rule: ${ruleErrorString(rule)}`));
        }
        continue;
      }
      if (result.value === true) continue;
      const at = compiled.normalizedFieldPath === '' ? path : child(path, compiled.normalizedFieldPath);
      const report = (e: FieldError): void => {
        if (!compiled.usesOldSelf && shouldRatchet(r)) run.ctx.warnings.addWarning(formatFieldError(e));
        else run.errs.push(e);
      };
      let detail: string | undefined;
      if (compiled.messageExpression !== undefined) {
        const m = evaluate(compiled.messageExpression, activation, { costLimit: PerCallLimit });
        if (m.cost > run.budget) {
          report(invalid(fieldOf(at), type, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
          run.budget = -1;
          return;
        }
        if (m.error?.detail.startsWith('operation cancelled: actual cost limit exceeded') === true) {
          report(invalid(fieldOf(at), type, `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression ?? '')}`));
          run.budget = -1;
          return;
        }
        run.budget -= m.cost;
        detail = m.error === undefined ? messageOf(m.value) : undefined;
      }
      detail ??= ruleMessageOrDefault(rule);
      const value = type === 'object' || type === 'array' ? OMIT_VALUE : obj;
      report(errorForReason(fieldOf(at), value, detail, rule.reason));
    }
  }
}

/** A messageExpression's result, when it is a usable message: a non-empty string of one line, not too long. */
function messageOf(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t.length === 0 || Buffer.byteLength(t) > MaxEvaluatedMessageExpressionSizeBytes || /\n/.test(t)) return undefined;
  return t;
}

function ruleErrorString(r: DeepReadonly<ValidationRule>): string {
  return (r.message ?? '') !== '' ? (r.message ?? '').trim() : (r.rule ?? '').trim();
}

function ruleMessageOrDefault(r: DeepReadonly<ValidationRule>): string {
  return (r.message ?? '') === '' ? `failed rule: ${ruleErrorString(r)}` : (r.message ?? '').trim();
}

function errorForReason(field: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return forbidden(field, detail);
    case 'FieldValueRequired': return required(field, detail);
    case 'FieldValueDuplicate': return duplicate(field, value);
    default: return invalid(field, value, detail);
  }
}

/**
 * The rule errors of a schema's `default` (at `path`, the default's field path), as kube checks a
 * CRD's defaults: once with the default as its own old value, then, if that passed, as a new value
 * (so optionalOldSelf rules see none); nothing ratchets.
 */
export function validateDefaultRules(ctx: RequestContext, schema: Schema, value: unknown, path: FieldPath): FieldError[] {
  if (!has(schema)) return [];
  const node = new Node(schema, schema['x-kubernetes-embedded-resource'] === true, true);
  const run: Run = { ctx, budget: RuntimeCELCostBudget, errs: [] };
  node.validate(run, path, value, value, {});
  if (run.errs.length === 0 && run.budget >= 0) node.validate(run, path, value, undefined, {});
  return run.errs;
}

/** The rules of a custom resource schema, compiled once; undefined when it has none. */
export function newRuleValidator(schema: Schema): RuleValidator | undefined {
  if (!has(schema)) return undefined;
  const root = new Node(schema, true, true);
  return {
    validate(ctx, obj, old, correlation) {
      const run: Run = { ctx, budget: RuntimeCELCostBudget, errs: [] };
      try {
        root.validate(run, undefined, obj, old, { current: correlation });
      } catch (err) {
        run.errs.push(internalError(fieldOf(undefined), err));
      }
      return run.errs;
    },
  };
}
