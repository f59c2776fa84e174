// The ValidatingAdmissionPolicy plugin as the control plane builds it: policies and bindings
// followed by shared informers, params read from the store of their kind (built-in or custom,
// resolved through discovery at request time so that a CRD created later is found), namespaces
// from the namespace cache, and `authorizer` over the server's authorizer chain.
// Counterpart of the policy plugin initialisation in k8s.io/apiserver/pkg/server/options/admission.go.
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Plugin } from '../admission/interfaces.ts';
import type { ParamSource } from '../admission/policy/generic.ts';
import { validatingAdmissionPolicy } from '../admission/policy/validating/plugin.ts';
import { mutatingAdmissionPolicy } from '../admission/policy/mutating/plugin.ts';
import type { RESTMapper } from '../admission/plugins/owner-references.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { CelAuthorizer } from '../cel/index.ts';
import type { ParamKind } from '../generated/types/admissionregistrationv1.gen.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

export interface PolicyAdmissionDeps {
  readonly policies: SharedInformer<KubeObject>;
  readonly bindings: SharedInformer<KubeObject>;
  /** MutatingAdmissionPolicy's informers; absent when its resources are not served. */
  readonly mutatingPolicies?: SharedInformer<KubeObject> | undefined;
  readonly mutatingBindings?: SharedInformer<KubeObject> | undefined;
  readonly authorizer: CelAuthorizer;
  /** A store by "resource" or "resource.group", custom resources included. */
  readonly storeFor: (resource: string) => ResourceStore<KubeObject> | undefined;
  readonly restMapper: RESTMapper;
  /**
   * A param in the paramKind's version (kube's param informer watches that version): built-in
   * kinds through the scheme; custom resources, which the scheme does not know, keep their
   * content and take the version (conversion None).
   */
  readonly convert: (obj: KubeObject, group: string, version: string) => KubeObject;
}

const POLICIES = 'validatingadmissionpolicies.admissionregistration.k8s.io';
const BINDINGS = 'validatingadmissionpolicybindings.admissionregistration.k8s.io';
const MUTATING_POLICIES = 'mutatingadmissionpolicies.admissionregistration.k8s.io';
const MUTATING_BINDINGS = 'mutatingadmissionpolicybindings.admissionregistration.k8s.io';

/** The plugin's informers; undefined when admissionregistration.k8s.io/v1 is not served. */
export function policyAdmissionInformers(stores: ReadonlyMap<string, ListWatcher>, informerFor: (lw: ListWatcher, name: string) => SharedInformer):
  Pick<PolicyAdmissionDeps, 'policies' | 'bindings' | 'mutatingPolicies' | 'mutatingBindings'> | undefined {
  const p = stores.get(POLICIES);
  const b = stores.get(BINDINGS);
  if (p === undefined || b === undefined) return undefined;
  const mp = stores.get(MUTATING_POLICIES);
  const mb = stores.get(MUTATING_BINDINGS);
  const mutating = mp === undefined || mb === undefined ? {} : { mutatingPolicies: informerFor(mp, MUTATING_POLICIES), mutatingBindings: informerFor(mb, MUTATING_BINDINGS) };
  return { policies: informerFor(p, POLICIES), bindings: informerFor(b, BINDINGS), ...mutating };
}

function paramSource(deps: PolicyAdmissionDeps, kind: ParamKind): ParamSource | undefined {
  const av = kind.apiVersion ?? '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  let mapping;
  try {
    mapping = deps.restMapper(group, kind.kind ?? '', version)[0];
  } catch {
    return undefined;
  }
  if (mapping === undefined) return undefined;
  const name = group === '' ? mapping.resource : `${mapping.resource}.${group}`;
  const store = deps.storeFor(name);
  if (store === undefined) return undefined;
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const versioned = (o: KubeObject): KubeObject => {
    if (o.apiVersion === apiVersion) return o;
    try {
      return deps.convert(o, group, version);
    } catch {
      return { ...o, apiVersion };
    }
  };
  return {
    namespaced: mapping.namespaced,
    async get(ns, n) {
      try {
        return versioned(await store.get(systemContext(ns), n, {}));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async list(ns) { return (await store.list(systemContext(ns), {})).items.map(versioned); },
  };
}

/** A plugin that never handles a request, for a chain built without admissionregistration (tests). */
const inert: Plugin = { name: 'ValidatingAdmissionPolicy', handles: () => false };

/** MutatingAdmissionPolicy over the same params, namespaces and authorizer; inert without its informers. */
export function mutatingPolicyAdmissionPlugin(deps: PolicyAdmissionDeps | undefined, getNamespace: (name: string) => Promise<KubeObject | undefined>): Plugin {
  if (deps?.mutatingPolicies === undefined || deps.mutatingBindings === undefined) return { name: 'MutatingAdmissionPolicy', handles: () => false };
  return mutatingAdmissionPolicy({
    policies: deps.mutatingPolicies, bindings: deps.mutatingBindings, getNamespace, authorizer: deps.authorizer, params: (k) => paramSource(deps, k),
  });
}

export function policyAdmissionPlugin(deps: PolicyAdmissionDeps | undefined, getNamespace: (name: string) => Promise<KubeObject | undefined>): Plugin {
  if (deps === undefined) return inert;
  return validatingAdmissionPolicy({
    policies: deps.policies, bindings: deps.bindings, getNamespace, authorizer: deps.authorizer, params: (k) => paramSource(deps, k),
  });
}
