// Whether a policy's matchConstraints, or a binding's matchResources, cover a request: namespace
// and object selectors, excludeResourceRules, resourceRules with resourceNames and, with matchPolicy
// Equivalent, the same resource in its other served versions and groups.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go and
// generic/policy_matcher.go.
import { newInternalError, StatusError } from '../../apimachinery/errors/status-error.ts';
import { labelSelectorAsSelector } from '../../apimachinery/labels/label-selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { GroupVersionKind, GroupVersionResource } from '../../apimachinery/schema/group-version.ts';
import type { MatchResources, NamedRuleWithOperations } from '../../generated/types/admissionregistrationv1.gen.ts';
import type { Attributes } from '../interfaces.ts';
import { ruleMatches } from '../webhook/rules.ts';

/** Reads a namespace (informer first, then storage); undefined when it does not exist. */
export type NamespaceGetter = (name: string) => Promise<KubeObject | undefined>;

/** The resource and kind the request matched as (the request's own, or an equivalent one). */
export interface MatchedAs {
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
}

const NIL_SELECTOR = (which: string): Error => new Error(`a nil ${which} selector was passed, please ensure selectors are initialized properly`);

function namespaceNotFound(name: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound',
    message: `namespaces "${name}" not found`, details: { name, kind: 'namespaces' },
  });
}

const labelsOf = (o: KubeObject | undefined): Readonly<Record<string, string>> | undefined =>
  (o !== undefined && typeof o.metadata === 'object' && o.metadata !== null ? o.metadata.labels ?? {} : undefined);

async function matchNamespace(m: MatchResources, attrs: Attributes, getNamespace: NamespaceGetter): Promise<boolean | Error> {
  if (attrs.namespace === '' && attrs.resource.resource !== 'namespaces') return true;
  let sel;
  try { sel = labelSelectorAsSelector(m.namespaceSelector); } catch (err) { return newInternalError(err instanceof Error ? err : String(err)); }
  if (sel.empty) return true;
  // A namespace being created or updated is judged by the labels it is being given.
  if (attrs.resource.resource === 'namespaces' && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) {
    return sel.matches(labelsOf(attrs.object) ?? {});
  }
  const ns = await getNamespace(attrs.namespace === '' ? attrs.name : attrs.namespace);
  if (ns === undefined) return namespaceNotFound(attrs.namespace === '' ? attrs.name : attrs.namespace);
  return sel.matches(ns.metadata.labels ?? {});
}

function matchObject(m: MatchResources, attrs: Attributes): boolean | Error {
  let sel;
  try { sel = labelSelectorAsSelector(m.objectSelector); } catch (err) { return newInternalError(err instanceof Error ? err : String(err)); }
  if (sel.empty) return true;
  const n = labelsOf(attrs.object);
  const o = labelsOf(attrs.oldObject);
  return (n !== undefined && sel.matches(n)) || (o !== undefined && sel.matches(o));
}

const named = (r: NamedRuleWithOperations, name: string): boolean => (r.resourceNames ?? []).length === 0 || (r.resourceNames ?? []).includes(name);

function matchRules(rules: readonly NamedRuleWithOperations[], matchPolicy: string | undefined, attrs: Attributes): MatchedAs | undefined | Error {
  for (const r of rules) if (ruleMatches(r, attrs) && named(r, attrs.name)) return { resource: attrs.resource, kind: attrs.kind };
  if (matchPolicy !== 'Equivalent' || attrs.interfaces === undefined) return undefined;
  const equivalents = attrs.interfaces.equivalentResources(attrs.resource, attrs.subresource);
  for (const r of rules) {
    for (const eq of equivalents) {
      if (eq.group === attrs.resource.group && eq.version === attrs.resource.version && eq.resource === attrs.resource.resource) continue;
      if (!ruleMatches(r, { operation: attrs.operation, namespace: attrs.namespace, subresource: attrs.subresource, resource: eq })) continue;
      const kind = attrs.interfaces.kindFor(eq, attrs.subresource);
      if (kind === undefined) return new Error(`unable to convert to ${eq.group}/${eq.version}, Resource=${eq.resource}: unknown kind`);
      if (named(r, attrs.name)) return { resource: eq, kind };
    }
  }
  return undefined;
}

/**
 * Matcher.Matches: the resource and kind matched as, undefined when the request is not covered,
 * or the error kube answers through the policy's failurePolicy. Selector errors only count when
 * the rules match.
 */
export async function matches(m: MatchResources, attrs: Attributes, getNamespace: NamespaceGetter): Promise<MatchedAs | undefined | Error> {
  const ns = await matchNamespace(m, attrs, getNamespace);
  if (ns === false) return undefined;
  const obj = matchObject(m, attrs);
  if (obj === false) return undefined;
  const policy = m.matchPolicy ?? 'Equivalent';
  const excluded = matchRules(m.excludeResourceRules ?? [], policy, attrs);
  if (excluded instanceof Error) return excluded;
  if (excluded !== undefined) return undefined;
  const rules = m.resourceRules ?? [];
  const matched = rules.length === 0 ? { resource: attrs.resource, kind: attrs.kind } : matchRules(rules, policy, attrs);
  if (matched === undefined || matched instanceof Error) return matched;
  if (ns instanceof Error) return ns;
  if (obj instanceof Error) return obj;
  return matched;
}

/** DefinitionMatches: a policy without matchConstraints or selectors is an error of the policy. */
export async function policyMatches(m: MatchResources | undefined, attrs: Attributes, getNamespace: NamespaceGetter): Promise<MatchedAs | undefined | Error> {
  if (m === undefined) return new Error('policy contained no match constraints, a required field');
  if (m.namespaceSelector === undefined) return NIL_SELECTOR('namespace');
  if (m.objectSelector === undefined) return NIL_SELECTOR('object');
  return matches(m, attrs, getNamespace);
}

/** BindingMatches: a binding without matchResources covers everything its policy does. */
export async function bindingMatches(m: MatchResources | undefined, attrs: Attributes, getNamespace: NamespaceGetter): Promise<boolean | Error> {
  if (m === undefined) return true;
  if (m.namespaceSelector === undefined) return NIL_SELECTOR('namespace');
  if (m.objectSelector === undefined) return NIL_SELECTOR('object');
  const r = await matches(m, attrs, getNamespace);
  return r instanceof Error ? r : r !== undefined;
}
