// The matchConditions of an authorization webhook: CEL expressions over `request` (the
// SubjectAccessReviewSpec the webhook would receive) that must all be true for the webhook to be
// asked. The first false skips the webhook (no opinion); errors without a false are an error of
// the authorizer (its failurePolicy decides).
// Counterpart of k8s.io/apiserver/pkg/authorization/cel (compile.go, matcher.go).
import {
  compile, evaluate, listType, mapType, newEnvironment, objectType, PerCallLimit, StringType, toCelValue,
  type CelEnvironment, type DeclField, type DeclType, type ObjectDeclType, type Program,
} from '../cel/index.ts';
import { MAX_UINT64 } from '../cel/cost-math.ts';

function object(name: string, fields: readonly (readonly [string, DeclType])[]): ObjectDeclType {
  const m = new Map<string, DeclField>();
  for (const [n, type] of fields) m.set(n, { name: n, jsonName: n, type, required: false });
  return objectType(name, m);
}

const strings = (): DeclType => listType(StringType, MAX_UINT64);

/** kubernetes.SubjectAccessReviewSpec, the type of `request`. */
function requestType(): ObjectDeclType {
  const requirement = object('kubernetes.SelectorRequirement', [['key', StringType], ['operator', StringType], ['values', strings()]]);
  const selector = (name: string): ObjectDeclType => object(name, [['rawSelector', StringType], ['requirements', listType(requirement, MAX_UINT64)]]);
  const resourceAttributes = object('kubernetes.ResourceAttributes', [
    ['namespace', StringType], ['verb', StringType], ['group', StringType], ['version', StringType], ['resource', StringType],
    ['subresource', StringType], ['name', StringType],
    ['fieldSelector', selector('kubernetes.FieldSelectorAttributes')], ['labelSelector', selector('kubernetes.LabelSelectorAttributes')],
  ]);
  const nonResourceAttributes = object('kubernetes.NonResourceAttributes', [['path', StringType], ['verb', StringType]]);
  return object('kubernetes.SubjectAccessReviewSpec', [
    ['resourceAttributes', resourceAttributes], ['nonResourceAttributes', nonResourceAttributes], ['user', StringType],
    ['groups', strings()], ['extra', mapType(StringType, strings(), MAX_UINT64)], ['uid', StringType],
  ]);
}

const REQUEST_TYPE = requestType();
let env: CelEnvironment | undefined;
const environment = (): CelEnvironment => (env ??= newEnvironment([{ name: 'request', type: REQUEST_TYPE }]));

/** The spec of a v1 SubjectAccessReview, as the webhook authorizer builds it. */
export interface SubjectAccessReviewSpec {
  resourceAttributes?: Record<string, unknown>;
  nonResourceAttributes?: { path: string; verb: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/** A compiled expression, or kube's validation detail for it (`compilation failed: ...`, `must evaluate to bool but got string`). */
export type CompiledCondition = { readonly program: Program; readonly error?: undefined } | { readonly program?: undefined; readonly error: string };

/** Compiles one match condition in the environment of `request`. */
export function compileMatchCondition(expression: string): CompiledCondition {
  const r = compile(expression, environment());
  if (r.error !== undefined) return { error: r.error.detail };
  if (r.program.outputType !== 'bool') return { error: `must evaluate to bool but got ${r.program.outputType}` };
  return { program: r.program };
}

/** convertObjectToUnstructured: what `request` holds (extra never null; only the attributes the request has). */
function requestValue(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  const v: Record<string, unknown> = { user: spec.user ?? '', groups: spec.groups ?? [], uid: spec.uid ?? '', extra: spec.extra ?? {} };
  if (spec.resourceAttributes !== undefined) {
    const { namespace, verb, group, version, resource, subresource, name, fieldSelector, labelSelector } = spec.resourceAttributes;
    v['resourceAttributes'] = {
      namespace: namespace ?? '', verb: verb ?? '', group: group ?? '', version: version ?? '', resource: resource ?? '', subresource: subresource ?? '', name: name ?? '',
      // kube adds the selectors only for expressions that name them: only those can tell.
      ...(fieldSelector !== undefined ? { fieldSelector } : {}), ...(labelSelector !== undefined ? { labelSelector } : {}),
    };
  }
  if (spec.nonResourceAttributes !== undefined) v['nonResourceAttributes'] = { ...spec.nonResourceAttributes };
  return v;
}

/**
 * CELMatcher.Eval: true when every condition is true, false at the first false; rejects with
 * the errors of the conditions that failed (`cel evaluation error: expression '...' resulted in
 * error: ...`) when none was false.
 */
export function evalMatchConditions(programs: readonly Program[], spec: SubjectAccessReviewSpec): boolean {
  const activation = { request: toCelValue(requestValue(spec), REQUEST_TYPE) };
  const errors: string[] = [];
  for (const p of programs) {
    const r = evaluate(p, activation, { costLimit: PerCallLimit });
    if (r.error !== undefined) {
      errors.push(`cel evaluation error: expression '${p.expression}' resulted in error: ${r.error.detail}`);
      continue;
    }
    if (typeof r.value !== 'boolean') {
      errors.push(`cel evaluation error: expression '${p.expression}' eval result type should be bool but got ${typeof r.value}`);
      continue;
    }
    if (!r.value) return false;
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return true;
}
