// matchConditions: CEL expressions over `object`, `oldObject`, `request` and `authorizer` that
// must all be true for the webhook to be called.
// A false condition skips the webhook whatever else happened; errors (without a false) fail the
// request with 403 under failurePolicy Fail and skip the webhook under Ignore.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go and
// the evaluation of k8s.io/apiserver/pkg/admission/plugin/cel (activation.go, condition.go).
import { newForbidden, type StatusError } from '../../apimachinery/errors/status-error.ts';
import {
  admissionRequestType, AuthorizerType, authorizerValue, compile, DynType, dynToCel, evaluateAsync, newEnvironment,
  RuntimeCELCostBudgetMatchConditions, toCelValue, type CelAuthorizer, type CelEnvironment, type Program,
} from '../../cel/index.ts';
import type { Attributes } from '../interfaces.ts';
import type { WebhookAccessor } from './accessor.ts';
import type { Invocation } from './admission-review.ts';
import { versionedAsync } from './call.ts';
import type { MatchConditionsFn } from './matching.ts';

const requestType = admissionRequestType();
let env: CelEnvironment | undefined;
const environment = (): CelEnvironment => (env ??= newEnvironment([
  { name: 'object', type: DynType }, { name: 'oldObject', type: DynType }, { name: 'request', type: requestType },
  { name: 'authorizer', type: AuthorizerType },
]));

/** An authorizer that allows nothing: for a server built without one (tests). */
const NO_AUTHORIZER: CelAuthorizer = { authorize: () => ({ decision: 'noOpinion', reason: 'no authorizer' }) };

interface Compiled { readonly expression: string; readonly program?: Program; readonly error?: string }

/** Compiled once per webhook accessor (a configuration change makes new accessors). */
const compiled = new WeakMap<WebhookAccessor, readonly Compiled[]>();

function conditionsOf(h: WebhookAccessor): readonly Compiled[] {
  let c = compiled.get(h);
  if (c === undefined) {
    c = (h.spec.matchConditions ?? []).map((m) => {
      const expression = m.expression ?? '';
      const r = compile(expression, environment());
      if (r.error !== undefined) return { expression, error: `compilation error: ${r.error.detail}` };
      return r.program.outputType === 'bool' || r.program.outputType === 'dyn' ? { expression, program: r.program }
        : { expression, error: `compilation error: must evaluate to bool but got ${r.program.outputType}` };
    });
    compiled.set(h, c);
  }
  return c;
}

/** The `request` variable: the AdmissionRequest of the invocation, without uid and objects (CreateAdmissionRequest). */
function requestValue(attrs: Attributes, inv: Invocation): Record<string, unknown> {
  const u = attrs.userInfo;
  return {
    kind: { group: inv.kind.group, version: inv.kind.version, kind: inv.kind.kind },
    resource: { group: inv.resource.group, version: inv.resource.version, resource: inv.resource.resource },
    subResource: attrs.subresource,
    requestKind: { group: attrs.kind.group, version: attrs.kind.version, kind: attrs.kind.kind },
    requestResource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource },
    requestSubResource: attrs.subresource, name: attrs.name, namespace: attrs.namespace, operation: attrs.operation,
    userInfo: { username: u?.name ?? '', uid: u?.uid ?? '', groups: [...(u?.groups ?? [])], extra: u?.extra ?? {} },
    dryRun: attrs.dryRun,
    ...(attrs.options !== undefined ? { options: attrs.options } : {}),
  };
}

/**
 * The webhooks' match conditions, with `authorizer` checking as the requesting user through
 * `authz`: each webhook's conditions on the request in the invocation's version resolve true,
 * false, or the 403 to answer.
 */
export const matchConditionsEvaluator = (authz: CelAuthorizer = NO_AUTHORIZER): MatchConditionsFn => async (h, attrs, inv) => {
  const u = attrs.userInfo;
  const activation = {
    object: dynToCel(await versionedAsync(attrs, inv.kind, attrs.object) ?? null),
    oldObject: dynToCel(await versionedAsync(attrs, inv.kind, attrs.oldObject) ?? null),
    request: toCelValue(requestValue(attrs, inv), requestType),
    authorizer: authorizerValue({ name: u?.name ?? '', ...(u?.uid !== undefined ? { uid: u.uid } : {}), groups: u?.groups ?? [],
      ...(u?.extra !== undefined ? { extra: u.extra } : {}) }, authz, {
      group: attrs.resource.group, resource: attrs.resource.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name,
    }),
  };
  const errors: string[] = [];
  // One budget for all the conditions of a webhook; running out is an error of the whole evaluation.
  let budget = RuntimeCELCostBudgetMatchConditions;
  for (const c of conditionsOf(h)) {
    if (c.program === undefined) { errors.push(c.error ?? ''); continue; }
    const r = await evaluateAsync(c.program, activation, { costLimit: budget });
    budget -= r.cost;
    if (r.error !== undefined && (r.costLimitExceeded === true || budget < 0)) {
      return failed(h, attrs, ['validation failed due to running out of cost budget, no further validation rules will be run']);
    }
    if (r.error !== undefined) { errors.push(`expression '${c.expression}' resulted in error: ${r.error.detail}`); continue; }
    if (r.value === false) return false;
    if (r.value !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload`);
  }
  return errors.length === 0 ? true : failed(h, attrs, errors);
};

/** Errors without a false condition: failurePolicy decides (Ignore skips the webhook, Fail answers 403). */
function failed(h: WebhookAccessor, attrs: Attributes, errors: readonly string[]): false | StatusError {
  if (h.spec.failurePolicy === 'Ignore') return false;
  const message = errors.length === 1 ? errors[0] ?? '' : `[${errors.join(', ')}]`;
  return newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, attrs.name, message);
}
