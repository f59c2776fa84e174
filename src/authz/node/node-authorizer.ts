// The Node authorizer (--authorization-mode Node): a kubelet, authenticated as system:node:<name>
// in group system:nodes, may read the secrets, config maps, claims, volumes and service accounts
// of the pods bound to its node (a graph from the node to the objects its pods use), manage its
// own Node, lease and CSINode, list pods only with its spec.nodeName field selector; anything
// else the node role's rules allow. It has no opinion on everyone else.
// Counterpart of plugin/pkg/auth/authorizer/node/node_authorizer.go (the graph is node-graph.ts
// in controlplane, computed from the stores on each question).
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../authorizer.ts';
import { rulesAllow } from '../rbac/evaluation-helpers.ts';
import type { PolicyRule } from '../rbac/types.ts';

export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'resourceslice' | 'secret' | 'serviceaccount' | 'volumeattachment';

/** Whether an object of `type` is reachable from the node through the objects bound to it. */
export interface NodeGraph {
  hasPathFrom(node: string, type: VertexType, namespace: string, name: string): Promise<boolean>;
}

/** NodeIdentity: the node name of a node user (empty when it is system:node: alone), else undefined. */
export function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (user === undefined || !user.name.startsWith('system:node:') || !user.groups.includes('system:nodes')) return undefined;
  return user.name.slice('system:node:'.length);
}

const allow: AuthorizationResult = { decision: 'Allow', reason: '' };
const no = (reason = ''): AuthorizationResult => ({ decision: 'NoOpinion', reason });

/** Whether the field selector has spec.nodeName (or `field`) = value. */
function selects(fieldSelector: string | undefined, field: string, value: string): boolean {
  return (fieldSelector ?? '').split(',').some((term) => {
    const m = /^\s*([^=!]+?)\s*(==|=)\s*(.*?)\s*$/.exec(term);
    return m !== null && m[1] === field && m[3] === value;
  });
}

export class NodeAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly graph: NodeGraph, private readonly rules: readonly PolicyRule[],
    private readonly features: { readonly getServiceAccounts: boolean }) {}

  /** Nodes' permissions are not enumerable: incomplete, with kube's error. */
  rulesFor(user: UserInfo): Promise<RulesResult> {
    return Promise.resolve(nodeIdentity(user) === undefined ? { resourceRules: [], nonResourceRules: [], incomplete: false }
      : { resourceRules: [], nonResourceRules: [], incomplete: true, error: new Error('node authorizer does not support user rule resolution') });
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    const node = nodeIdentity(a.user);
    if (node === undefined) return no();
    if (node === '') return no(`unknown node for user "${a.user?.name ?? ''}"`);
    if (a.resourceRequest) {
      const r = await this.byResource(node, a);
      if (r !== undefined) return r;
    }
    return rulesAllow(a, this.rules) ? allow : no();
  }

  private async byResource(node: string, a: Attributes): Promise<AuthorizationResult | undefined> {
    switch (`${a.resource}.${a.apiGroup}`) {
      case 'secrets.': return this.readNamespaced(node, 'secret', a);
      case 'configmaps.': return this.readNamespaced(node, 'configmap', a);
      case 'persistentvolumeclaims.': return a.subresource === 'status' ? this.statusUpdate(node, 'pvc', a) : this.get(node, 'pvc', a);
      case 'persistentvolumes.': return this.get(node, 'pv', a);
      case 'resourceclaims.resource.k8s.io': return this.get(node, 'resourceclaim', a);
      case 'volumeattachments.storage.k8s.io': return this.get(node, 'volumeattachment', a);
      case 'serviceaccounts.': return this.serviceAccount(node, a);
      case 'leases.coordination.k8s.io': return this.lease(node, a);
      case 'csinodes.storage.k8s.io': return this.csiNode(node, a);
      case 'resourceslices.resource.k8s.io': return this.resourceSlice(node, a);
      case 'nodes.': return this.node(node, a);
      case 'pods.': return this.pod(node, a);
      // PodCertificateRequest is off in v1.36: no opinion.
      case 'podcertificaterequests.certificates.k8s.io': return no();
      default: return undefined;
    }
  }

  private async path(node: string, type: VertexType, a: Attributes): Promise<AuthorizationResult> {
    if (a.name === '') return no('No Object name found');
    return await this.graph.hasPathFrom(node, type, a.namespace, a.name) ? allow : no(`no relationship found between node '${node}' and this object`);
  }

  private statusUpdate(node: string, type: VertexType, a: Attributes): Promise<AuthorizationResult> {
    if (a.verb !== 'update' && a.verb !== 'patch') return Promise.resolve(no('can only get/update/patch this type'));
    if (a.subresource !== 'status') return Promise.resolve(no('can only update status subresource'));
    return this.path(node, type, a);
  }

  private get(node: string, type: VertexType, a: Attributes): Promise<AuthorizationResult> {
    if (a.verb !== 'get') return Promise.resolve(no('can only get individual resources of this type'));
    if (a.subresource !== '') return Promise.resolve(no('cannot get subresource'));
    return this.path(node, type, a);
  }

  private readNamespaced(node: string, type: VertexType, a: Attributes): Promise<AuthorizationResult> {
    if (!['get', 'list', 'watch'].includes(a.verb)) return Promise.resolve(no('can only read resources of this type'));
    if (a.subresource !== '') return Promise.resolve(no('cannot read subresource'));
    if (a.namespace === '') return Promise.resolve(no('can only read namespaced object of this type'));
    return this.path(node, type, a);
  }

  private serviceAccount(node: string, a: Attributes): Promise<AuthorizationResult> {
    if (a.verb === 'get' && a.subresource === '') {
      if (!this.features.getServiceAccounts) return Promise.resolve(no('not allowed to get service accounts'));
      return this.readNamespaced(node, 'serviceaccount', a);
    }
    if (a.verb !== 'create' || a.name === '') return Promise.resolve(no('can only create tokens for individual service accounts'));
    if (a.subresource !== 'token') return Promise.resolve(no('can only create token subresource of serviceaccount'));
    return this.path(node, 'serviceaccount', a);
  }

  private lease(node: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== 'kube-node-lease') return no('can only access leases in the "kube-node-lease" system namespace');
    if (a.verb !== 'create' && a.name !== node) return no('can only access node lease with the same name as the requesting node');
    return allow;
  }

  private csiNode(node: string, a: Attributes): AuthorizationResult {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource !== '') return no('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) return no('can only access CSINode with the same name as the requesting node');
    return allow;
  }

  private resourceSlice(node: string, a: Attributes): Promise<AuthorizationResult> | AuthorizationResult {
    if (a.subresource !== '') return no('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create': return allow;
      case 'get': case 'update': case 'patch': case 'delete': return this.path(node, 'resourceslice', a);
      case 'watch': case 'list': case 'deletecollection':
        return selects(a.fieldSelector, 'spec.nodeName', node) ? allow : no('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default: return no('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
  }

  private node(node: string, a: Attributes): AuthorizationResult {
    if (a.subresource === '') {
      if (['create', 'update', 'patch'].includes(a.verb)) return allow;
      if (['get', 'list', 'watch'].includes(a.verb)) {
        if (a.name === node) return allow;
        return no(a.name === '' ? `node '${node}' cannot read all nodes, only its own Node object`
          : `node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return allow;
    }
    return no();
  }

  private async pod(node: string, a: Attributes): Promise<AuthorizationResult> {
    switch (a.subresource) {
      case '':
        if (a.verb === 'get') return this.get(node, 'pod', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          if (selects(a.fieldSelector, 'spec.nodeName', node)) return allow;
          if (a.name !== '') return this.path(node, 'pod', a);
          return no('can only list/watch pods with spec.nodeName field selector');
        }
        if (a.verb === 'create' || a.verb === 'delete') return allow;
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return allow;
        break;
      case 'eviction':
        if (a.verb === 'create') return allow;
        break;
    }
    return no();
  }
}
