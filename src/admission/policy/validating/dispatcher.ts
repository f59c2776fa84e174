// The ValidatingAdmissionPolicy dispatcher: for each policy the request matches, each of its
// bindings that matches, each param the binding selects, the policy's decisions applied with the
// binding's validationActions (Deny fails the request, Warn adds a warning, Audit an audit
// annotation); configuration errors go through the policy's failurePolicy.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go and
// generic/policy_dispatcher.go (CollectParams).
import { newForbidden, StatusError } from '../../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import { goEscapeJSON } from '../../../apimachinery/runtime/serializer/json.ts';
import type { CelAuthorizer } from '../../../cel/index.ts';
import type { ValidatingAdmissionPolicyBinding } from '../../../generated/types/admissionregistrationv1.gen.ts';
import { addAuditAnnotation } from '../../audit-annotations.ts';
import type { Attributes } from '../../interfaces.ts';
import { admissionName } from '../../plugins/limit-ranger.ts';
import { versionedOrConversionError } from '../../webhook/call.ts';
import type { CompiledPolicy } from './compile.ts';
import { cachingAuthorizer, collectParams, namespaceValue, requestValue, type PolicyHook as GenericPolicyHook } from '../generic.ts';
import { bindingMatches, policyMatches, type NamespaceGetter } from '../matching.ts';
import { validate, type PolicyDecision } from './validator.ts';
import { observeValidatingPolicyCheck, policyErrorType } from '../metrics.ts';

export type PolicyHook = GenericPolicyHook<CompiledPolicy, ValidatingAdmissionPolicyBinding>;

export interface DispatchDeps {
  readonly getNamespace: NamespaceGetter;
  readonly authorizer: CelAuthorizer;
}

interface Denied extends PolicyDecision {
  readonly policy: string;
  readonly binding?: string | undefined;
}

const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;

function denial(attrs: Attributes, d: Denied): StatusError {
  const message = d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const base = newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, admissionName(attrs), message).status;
  const reason = d.reason !== undefined && d.reason !== '' ? d.reason : 'Invalid';
  const code = reason === 'Forbidden' ? 403 : reason === 'Unauthorized' ? 401 : reason === 'RequestEntityTooLarge' ? 413 : 422;
  return new StatusError({
    ...base, reason: reason as StatusError['reason'], code,
    details: { ...base.details, causes: [...(base.details?.causes ?? []), { message }] },
  });
}

export async function dispatch(ctx: RequestContext, attrs: Attributes, hooks: readonly PolicyHook[], deps: DispatchDeps): Promise<void> {
  const denied: Denied[] = [];
  const configError = (hook: PolicyHook, err: string, binding?: string): void => {
    const f = hook.compiled.failurePolicy;
    if (f === 'Ignore') return;
    const policy = hook.compiled.policy.metadata?.name ?? '';
    const message = f === 'Fail' ? `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${err}` : `unrecognized failure policy: '${f}'`;
    denied.push({ action: 'deny', evaluation: 'error', message, policy, binding });
  };
  const authorizer = cachingAuthorizer(deps.authorizer);
  const u = attrs.userInfo;
  const user = { name: u?.name ?? '', ...(u?.uid !== undefined ? { uid: u.uid } : {}), groups: u?.groups ?? [], ...(u?.extra !== undefined ? { extra: u.extra } : {}) };

  // The request's objects in each matched kind, converted once (a CRD's webhook may do it).
  const versionedObjects = new Map<string, { object: unknown; oldObject: unknown }>();
  for (const hook of hooks) {
    const policyName = hook.compiled.policy.metadata?.name ?? '';
    const m = await policyMatches(hook.compiled.policy.spec?.matchConstraints, attrs, deps.getNamespace);
    if (m instanceof Error) { configError(hook, m.message); continue; }
    if (m === undefined) continue;
    if (hook.configurationError !== undefined) { configError(hook, hook.configurationError); continue; }
    const annotations = new Map<string, string[]>();
    const kindKey = `${m.kind.group}/${m.kind.version}/${m.kind.kind}`;
    for (const binding of hook.bindings) {
      const bindingName = binding.metadata?.name ?? '';
      const bm = await bindingMatches(binding.spec?.matchResources, attrs, deps.getNamespace);
      if (bm instanceof Error) { configError(hook, bm.message, bindingName); continue; }
      if (!bm) continue;
      const params = await collectParams(hook.compiled.policy.spec?.paramKind, hook.params, binding.spec?.paramRef, attrs.namespace);
      if (typeof params === 'string') { configError(hook, params, bindingName); continue; }
      if (params.length === 0) continue;
      let objects = versionedObjects.get(kindKey);
      try {
        if (objects === undefined) {
          const oldObject = await versionedOrConversionError(attrs, m.kind, attrs.oldObject) ?? null;
          versionedObjects.set(kindKey, objects = { oldObject, object: await versionedOrConversionError(attrs, m.kind, attrs.object) ?? null });
        }
      } catch (err) {
        configError(hook, `failed to convert object version: ${err instanceof Error ? err.message : String(err)}`, bindingName);
        continue;
      }
      const isNamespace = attrs.kind.group === '' && attrs.kind.version === 'v1' && attrs.kind.kind === 'Namespace';
      const nsName = isNamespace ? '' : attrs.namespace;
      const namespace = nsName === '' ? null : namespaceValue(await deps.getNamespace(nsName));
      const request = requestValue(attrs, m);
      const requestResource = { group: attrs.resource.group, resource: attrs.resource.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name };
      const kind = hook.compiled.policy.spec?.paramKind;
      for (const param of params) {
        const p = param === null ? null : { ...param, apiVersion: param.apiVersion ?? kind?.apiVersion, kind: param.kind ?? kind?.kind };
        const started = process.hrtime.bigint();
        const result = await validate(hook.compiled, { ...objects, params: p, request, namespace, user, authorizer, requestResource });
        // kube times each expression; kapi the policy's evaluation for this param, shared by its decisions.
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const observe = (d: { evaluation: string; message: string }, action: 'allow' | 'deny' | 'audit' | 'warn'): void =>
          observeValidatingPolicyCheck(policyName, bindingName, policyErrorType(d.evaluation !== 'admit', d.message), action, seconds);
        result.decisions.forEach((d, i) => {
          if (d.action !== 'deny') {
            if (d.evaluation === 'error') observe(d, 'allow');
            return;
          }
          for (const action of binding.spec?.validationActions ?? []) {
            if (action === 'Deny') {
              denied.push({ ...d, policy: policyName, binding: bindingName });
              observe(d, 'deny');
            } else if (action === 'Warn') {
              ctx.warnings.addWarning(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`);
              observe(d, 'warn');
            } else if (action === 'Audit') {
              observe(d, 'audit');
              // Go's encoder, which escapes <, > and & (messages often hold `<=`).
              addAuditAnnotation(ctx, 'validation.policy.admission.k8s.io/validation_failure', goEscapeJSON(JSON.stringify([{
                message: d.message, policy: binding.spec?.policyName ?? '', binding: bindingName, expressionIndex: i, validationActions: binding.spec?.validationActions ?? [],
              }])));
            }
          }
        });
        for (const a of result.auditAnnotations) {
          if (a.action === 'publish') {
            const value = (a.value ?? '').slice(0, MAX_AUDIT_ANNOTATION_VALUE);
            const values = annotations.get(a.key) ?? [];
            if (!values.includes(value)) annotations.set(a.key, [...values, value]);
          } else if (a.action === 'error') {
            denied.push({ action: 'deny', evaluation: 'error', message: a.error ?? '', policy: policyName, binding: bindingName });
            observe({ evaluation: 'error', message: a.error ?? '' }, 'deny');
          }
        }
      }
    }
    for (const [key, values] of annotations) addAuditAnnotation(ctx, `${policyName}/${key}`, values.join(', '));
  }
  const first = denied[0];
  if (first !== undefined) throw denial(attrs, first);
}
