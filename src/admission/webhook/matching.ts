// Whether a webhook is called for a request (Webhook.ShouldCallHook): namespace and object
// selectors, the rules against the request's resource and, with matchPolicy Equivalent, against
// the same resource in the other versions and groups it is served in; then match conditions.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go (ShouldCallHook)
// and predicates/{namespace,object}/matcher.go.
import { newInternalError, StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Attributes } from '../interfaces.ts';
import type { WebhookAccessor } from './accessor.ts';
import type { Invocation } from './admission-review.ts';
import { ruleMatches, type RuleTarget } from './rules.ts';

/** Reads a namespace (informer first, then storage); undefined when it does not exist. */
export type NamespaceGetter = (name: string) => Promise<KubeObject | undefined>;

/** A namespace the request names but that does not exist: kube answers its NotFound. */
function namespaceNotFound(name: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound',
    message: `namespaces ${JSON.stringify(name)} not found`, details: { name, kind: 'namespaces' },
  });
}

const labelsOf = (o: KubeObject | undefined): Readonly<Record<string, string>> | undefined =>
  (o !== undefined && typeof o.metadata === 'object' && o.metadata !== null ? o.metadata.labels ?? {} : undefined);

/** MatchObjectSelector: the new or the old object carries the labels; an object without metadata never matches. */
function matchObjectSelector(h: WebhookAccessor, attrs: Attributes): boolean | StatusError {
  const sel = h.objectSelector;
  if (sel instanceof Error) return newInternalError(sel);
  if (sel.empty) return true;
  const n = labelsOf(attrs.object);
  const o = labelsOf(attrs.oldObject);
  return (n !== undefined && sel.matches(n)) || (o !== undefined && sel.matches(o));
}

/**
 * MatchNamespaceSelector: cluster-scoped requests (other than on namespaces) always match; a
 * namespace's own create or update is judged by the labels it is being given.
 */
async function matchNamespaceSelector(h: WebhookAccessor, attrs: Attributes, getNamespace: NamespaceGetter): Promise<boolean | StatusError> {
  const isNamespace = attrs.resource.resource === 'namespaces' && attrs.resource.group === '';
  if (attrs.namespace === '' && attrs.resource.resource !== 'namespaces') return true;
  const sel = h.namespaceSelector;
  if (sel instanceof Error) return newInternalError(sel);
  if (sel.empty) return true;
  let labels: Readonly<Record<string, string>> | undefined;
  if (isNamespace && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    labels = labelsOf(attrs.object) ?? {};
  } else {
    const ns = await getNamespace(attrs.namespace);
    if (ns === undefined) return namespaceNotFound(attrs.namespace);
    labels = ns.metadata.labels ?? {};
  }
  return sel.matches(labels);
}

function matchRules(h: WebhookAccessor, attrs: Attributes): Invocation | undefined | StatusError {
  const rules = h.spec.rules ?? [];
  const target: RuleTarget = attrs;
  if (rules.some((r) => ruleMatches(r, target))) return { resource: attrs.resource, subresource: attrs.subresource, kind: attrs.kind };
  if ((h.spec.matchPolicy ?? 'Equivalent') !== 'Equivalent' || attrs.interfaces === undefined) return undefined;
  const equivalents = attrs.interfaces.equivalentResources(attrs.resource, attrs.subresource);
  // Earlier rules first; the request's own resource was checked above.
  for (const r of rules) {
    for (const eq of equivalents) {
      if (eq.group === attrs.resource.group && eq.version === attrs.resource.version && eq.resource === attrs.resource.resource) continue;
      if (!ruleMatches(r, { ...target, operation: attrs.operation, namespace: attrs.namespace, subresource: attrs.subresource, resource: eq })) continue;
      const kind = attrs.interfaces.kindFor(eq, attrs.subresource);
      if (kind === undefined) return newInternalError(`unable to convert to ${eq.group}/${eq.version}, Resource=${eq.resource}: unknown kind`);
      return { resource: eq, subresource: attrs.subresource, kind };
    }
  }
  return undefined;
}

/** Evaluates a webhook's match conditions on the request in the invocation's version. */
export type MatchConditionsFn = (h: WebhookAccessor, attrs: Attributes, inv: Invocation) => Promise<boolean | StatusError>;

/**
 * The invocation when the webhook is to be called, undefined when not, or the StatusError that
 * fails the request (a selector that does not parse, a namespace that does not exist, a match
 * condition that errs with failurePolicy Fail).
 */
export async function shouldCallHook(h: WebhookAccessor, attrs: Attributes, getNamespace: NamespaceGetter,
  matchConditions?: MatchConditionsFn): Promise<Invocation | undefined | StatusError> {
  const inv = matchRules(h, attrs);
  if (inv === undefined || inv instanceof StatusError) return inv;
  const obj = matchObjectSelector(h, attrs);
  if (obj === false) return undefined;
  const ns = await matchNamespaceSelector(h, attrs, getNamespace);
  if (ns === false) return undefined;
  if (ns instanceof StatusError) return ns;
  if (obj instanceof StatusError) return obj;
  if ((h.spec.matchConditions ?? []).length > 0 && matchConditions !== undefined) {
    const m = await matchConditions(h, attrs, inv);
    if (m !== true) return m === false ? undefined : m;
  }
  return inv;
}
