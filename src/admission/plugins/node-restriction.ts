// NodeRestriction: what a kubelet (system:node:<name> in system:nodes) may write. Mirror pods
// bound to itself that name no API objects, deleting and evicting its own pods, the status of its
// own pods (not labels or claim statuses), its own Node (no taints, owner references, config source
// or restricted labels), the status of claims, tokens for service accounts bound to its own pods
// (with an audience a pod asks for), its own lease, CSINode and resource slices, and CSRs for
// itself. Everyone else passes.
// Counterpart of plugin/pkg/admission/noderestriction.
import { isDeepStrictEqual } from 'node:util';
import { newForbidden, newNotFound } from '../../apimachinery/errors/status-error.ts';
import { loadX509 } from '../../apimachinery/util/x509-lib.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext, UserInfo } from '../../apimachinery/request/context.ts';
import { allowed, resourceAttributes, type AdmissionAuthorizer } from '../authorizer.ts';
import type { Attributes, Plugin } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';
import { apiObjectReference } from './pod-references.ts';

/** An object by resource ("pods", "csidrivers.storage.k8s.io"), namespace and name; undefined when missing. */
export type ObjectGetter = (resource: string, namespace: string, name: string) => Promise<KubeObject | undefined>;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Json : {});
const specOf = (o: KubeObject | undefined): Json => obj((o as (KubeObject & { spec?: unknown }) | undefined)?.spec);
const statusOf = (o: KubeObject | undefined): Json => obj((o as (KubeObject & { status?: unknown }) | undefined)?.status);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (user === undefined || !user.name.startsWith('system:node:') || !user.groups.includes('system:nodes')) return undefined;
  return user.name.slice('system:node:'.length);
}

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const isKubernetesLabel = (key: string): boolean => {
  const ns = labelNamespace(key);
  return ns === 'kubernetes.io' || ns.endsWith('.kubernetes.io') || ns === 'k8s.io' || ns.endsWith('.k8s.io');
};
// kubeletapis.IsKubeletLabel: the labels the kubelet sets on its node itself.
const KUBELET_LABELS = new Set(['kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region', 'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch']);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const isKubeletLabel = (key: string): boolean => {
  if (KUBELET_LABELS.has(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_LABEL_NAMESPACES.some((n) => ns === n || ns.endsWith(`.${n}`));
};

function forbiddenLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): string[] {
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(a ?? {})) if (b?.[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(b ?? {})) if (a?.[k] !== v) modified.add(k);
  return [...modified].filter((l) => {
    const ns = labelNamespace(l);
    return ns === 'node-restriction.kubernetes.io' || ns.endsWith('.node-restriction.kubernetes.io') || (isKubernetesLabel(l) && !isKubeletLabel(l));
  }).sort();
}

/**
 * util/diff.Diff of two claims as encoding/json prints kube's internal PersistentVolumeClaim (the
 * tables of that type live with the core API, above admission); '' leaves the diff out.
 */
export type ClaimDiff = (old: unknown, cur: unknown) => string;

/**
 * The CSI drivers of the in-tree volume sources csi-translation-lib migrates, by source field
 * (the same on a pod's inline volume and a PersistentVolume): a token audience may be one their
 * CSIDriver requests, as kube translates the volume before looking the driver up.
 */
const MIGRATED_DRIVERS: readonly (readonly [source: string, driver: string])[] = [
  ['gcePersistentDisk', 'pd.csi.storage.gke.io'], ['awsElasticBlockStore', 'ebs.csi.aws.com'], ['cinder', 'cinder.csi.openstack.org'],
  ['azureDisk', 'disk.csi.azure.com'], ['azureFile', 'file.csi.azure.com'], ['vsphereVolume', 'csi.vsphere.vmware.com'],
  ['portworxVolume', 'pxd.portworx.com'],
];

/** The CSI driver of a volume source (pod volume or PV spec): its own, else the one its in-tree source migrates to. */
function csiDriverOf(source: Json): string {
  const own = str(obj(source['csi'])['driver']);
  if (own !== '') return own;
  return MIGRATED_DRIVERS.find(([field]) => source[field] !== undefined && source[field] !== null)?.[1] ?? '';
}

export function nodeRestriction(get: ObjectGetter, authz: AdmissionAuthorizer, claimDiff: ClaimDiff = () => ''): Plugin {
  // kube checks every operation in Admit; kapi's delete path runs only the validating phase, so
  // deletes are checked there (once, whichever phases a delete gets).
  const check = async (ctx: RequestContext, a: Attributes): Promise<void> => {
    const node = nodeIdentity(ctx.user);
    if (node === undefined) return;
    const forbid = (msg: string): Error => newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), msg);
    if (node === '') throw forbid(`could not determine node from user "${ctx.user?.name ?? ''}"`);
    const r = new Restriction(node, a, forbid, get, authz, ctx.user, claimDiff);
    switch (`${a.resource.resource}.${a.resource.group}`) {
      case 'pods.':
        switch (a.subresource) {
          case '': return r.pod();
          case 'status': return r.podStatus();
          case 'eviction': return r.podEviction();
          default: throw forbid(`unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
        }
      case 'nodes.': return r.nodeObject();
      case 'persistentvolumeclaims.':
        if (a.subresource !== 'status') throw forbid('may only update PVC status');
        return r.pvcStatus();
      case 'serviceaccounts.': return r.serviceAccountToken();
      case 'leases.coordination.k8s.io': return r.lease();
      case 'csinodes.storage.k8s.io': return r.csiNode();
      case 'resourceslices.resource.k8s.io': return r.resourceSlice();
      case 'certificatesigningrequests.certificates.k8s.io': return r.csr();
      default: return undefined;
    }
  };
  return {
    name: 'NodeRestriction',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    admit: (ctx, a) => (a.operation === 'DELETE' ? Promise.resolve() : check(ctx, a)),
    validate: (ctx, a) => (a.operation === 'DELETE' ? check(ctx, a) : Promise.resolve()),
  };
}

class Restriction {
  constructor(private readonly node: string, private readonly a: Attributes, private readonly forbid: (msg: string) => Error,
    private readonly get: ObjectGetter, private readonly authz: AdmissionAuthorizer, private readonly user: UserInfo | undefined,
    private readonly claimDiff: ClaimDiff) {}

  private async existingPod(name: string): Promise<KubeObject> {
    const pod = await this.get('pods', this.a.namespace, name);
    if (pod === undefined) throw newNotFound({ group: '', resource: 'pods' }, name);
    return pod;
  }

  async pod(): Promise<void> {
    const { a, node, forbid } = this;
    if (a.operation === 'DELETE') {
      if (str(specOf(await this.existingPod(a.name))['nodeName']) !== node) throw forbid(`node "${node}" can only delete pods with spec.nodeName set to itself`);
      return;
    }
    if (a.operation !== 'CREATE') throw forbid(`unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
    const pod = a.object as KubeObject;
    if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] === undefined) {
      throw forbid(`pod does not have "kubernetes.io/config.mirror" annotation, node "${node}" can only create mirror pods`);
    }
    if (str(specOf(pod)['nodeName']) !== node) throw forbid(`node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length > 1) throw forbid(`node "${node}" can only create pods with a single owner reference set to itself`);
    const owner = owners[0] as (Json & { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }) | undefined;
    if (owner === undefined || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
      throw forbid(`node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) throw forbid(`node "${node}" can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion === true) throw forbid(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
    const nodeObj = await this.get('nodes', '', node);
    if (nodeObj === undefined) throw newNotFound({ group: '', resource: 'nodes' }, node);
    if (owner.uid !== nodeObj.metadata.uid) throw forbid(`node ${node} UID mismatch: expected ${nodeObj.metadata.uid ?? ''} got ${owner.uid}`);
    let ref: string | undefined;
    try {
      ref = apiObjectReference(pod);
    } catch (err) {
      throw forbid(`error checking mirror pod for API references: ${(err as Error).message}`);
    }
    if (ref !== undefined) throw forbid(`node "${node}" can not create pods that reference ${ref}`);
  }

  podStatus(): void {
    const { a, node, forbid } = this;
    if (a.operation !== 'UPDATE') throw forbid(`unexpected operation "${a.operation}"`);
    if (str(specOf(a.oldObject)['nodeName']) !== node) throw forbid(`node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
    if (!isDeepStrictEqual(a.oldObject?.metadata.labels ?? {}, a.object?.metadata.labels ?? {})) throw forbid(`node "${node}" cannot update labels through pod status`);
    const claims = (o: KubeObject | undefined): unknown[] => ((statusOf(o)['resourceClaimStatuses'] ?? []) as Json[])
      .map((c) => [str(c['name']), c['resourceClaimName'] ?? null]);
    if (!isDeepStrictEqual(claims(a.oldObject), claims(a.object))) throw forbid(`node "${node}" cannot update resource claim statues`);
    if (!isDeepStrictEqual(statusOf(a.oldObject)['extendedResourceClaimStatus'] ?? null, statusOf(a.object)['extendedResourceClaimStatus'] ?? null)) {
      throw forbid(`node "${node}" cannot update extended resource claim status`);
    }
  }

  async podEviction(): Promise<void> {
    const { a, node, forbid } = this;
    if (a.operation !== 'CREATE') throw forbid(`unexpected operation ${a.operation}`);
    const name = a.name !== '' ? a.name : a.object?.metadata.name ?? '';
    if (name === '') throw forbid('could not determine pod from request data');
    if (str(specOf(await this.existingPod(name))['nodeName']) !== node) throw forbid(`node ${node} can only evict pods with spec.nodeName set to itself`);
  }

  nodeObject(): void {
    const { a, node, forbid } = this;
    if (a.name !== node) throw forbid(`node "${node}" is not allowed to modify node "${a.name}"`);
    const cur = a.object;
    if (a.operation === 'CREATE') {
      if (specOf(cur)['configSource'] !== undefined) throw forbid(`node "${node}" is not allowed to create pods with a non-nil configSource`);
      const bad = forbiddenLabels(cur?.metadata.labels, undefined);
      if (bad.length > 0) throw forbid(`node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      const old = a.oldObject;
      const src = specOf(cur)['configSource'];
      if (src !== undefined && !isDeepStrictEqual(src, specOf(old)['configSource'])) {
        throw forbid(`node "${node}" is not allowed to update configSource to a new non-nil configSource`);
      }
      if (!isDeepStrictEqual(specOf(cur)['taints'] ?? [], specOf(old)['taints'] ?? [])) throw forbid(`node "${node}" is not allowed to modify taints`);
      if (!isDeepStrictEqual(cur?.metadata.ownerReferences ?? [], old?.metadata.ownerReferences ?? [])) throw forbid(`node "${node}" is not allowed to modify ownerReferences`);
      const bad = forbiddenLabels(cur?.metadata.labels, old?.metadata.labels);
      if (bad.length > 0) throw forbid(`is not allowed to modify labels: ${bad.join(', ')}`);
    }
  }

  pvcStatus(): void {
    const { a, node, forbid } = this;
    if (a.operation !== 'UPDATE') throw forbid(`unexpected operation "${a.operation}"`);
    // Only capacity, conditions and the expansion recovery fields may change.
    const strip = (o: KubeObject | undefined): unknown => {
      const { resourceVersion: _rv, managedFields: _mf, ...meta } = o?.metadata ?? {};
      const { capacity: _c, conditions: _co, allocatedResourceStatuses: _ars, allocatedResources: _ar, ...status } = statusOf(o);
      return { ...o, metadata: meta, status };
    };
    const [old, cur] = [strip(a.oldObject), strip(a.object)];
    if (!isDeepStrictEqual(old, cur)) {
      // kube ends the message with the diff of the two claims as they were compared.
      const diff = this.claimDiff(old, cur);
      throw forbid(`node "${node}" is not allowed to update fields other than status.quantity and status.conditions${diff === '' ? '' : `: ${diff}`}`);
    }
  }

  async serviceAccountToken(): Promise<void> {
    const { a, forbid } = this;
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const spec = specOf(a.object);
    const ref = obj(spec['boundObjectRef']);
    if (spec['boundObjectRef'] === undefined || ref['apiVersion'] !== 'v1' || ref['kind'] !== 'Pod' || str(ref['name']) === '') {
      throw forbid('node requested token not bound to a pod');
    }
    if (str(ref['uid']) === '') throw forbid('node requested token with a pod binding without a uid');
    const pod = await this.existingPod(str(ref['name']));
    if (str(ref['uid']) !== pod.metadata.uid) {
      throw forbid(`the UID in the bound object reference (${str(ref['uid'])}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    if (str(specOf(pod)['nodeName']) !== this.node) throw forbid('node requested token bound to a pod scheduled on a different node');
    await this.audience(pod, (spec['audiences'] ?? []) as string[]);
  }

  /** ServiceAccountNodeAudienceRestriction (on in v1.36): the audience must be one a pod's volume asks for, else authorized. */
  private async audience(pod: KubeObject, audiences: readonly string[]): Promise<void> {
    const { a, forbid } = this;
    if (audiences.length > 1) throw forbid('node may only request 0 or 1 audiences');
    const audience = audiences[0] ?? '';
    if (await this.podReferencesAudience(pod, audience)) return;
    if (await allowed(this.authz, resourceAttributes({
      user: this.user, verb: 'request-serviceaccounts-token-audience', namespace: a.namespace, apiVersion: 'v1', resource: audience, name: a.name,
    }))) return;
    throw forbid(`audience "${audience}" not found in pod spec volume, ${this.user?.name ?? ''} is not authorized to request tokens for this audience`);
  }

  private async podReferencesAudience(pod: KubeObject, audience: string): Promise<boolean> {
    for (const v of (specOf(pod)['volumes'] ?? []) as Json[]) {
      const sources = (obj(v['projected'])['sources'] ?? []) as Json[];
      if (sources.some((s) => s['serviceAccountToken'] !== undefined && str(obj(s['serviceAccountToken'])['audience']) === audience)) return true;
      const claim = v['ephemeral'] !== undefined ? `${pod.metadata.name ?? ''}-${str(v['name'])}` : str(obj(v['persistentVolumeClaim'])['claimName']);
      let driver = '';
      if (claim !== '') {
        const pvc = await this.get('persistentvolumeclaims', pod.metadata.namespace ?? '', claim);
        const pv = pvc === undefined ? undefined : await this.get('persistentvolumes', '', str(specOf(pvc)['volumeName']));
        driver = csiDriverOf(specOf(pv));
      } else {
        driver = csiDriverOf(v);
      }
      if (driver === '') continue;
      const csiDriver = await this.get('csidrivers.storage.k8s.io', '', driver);
      if (((specOf(csiDriver)['tokenRequests'] ?? []) as Json[]).some((t) => str(t['audience']) === audience)) return true;
    }
    return false;
  }

  lease(): void {
    const { a, node, forbid } = this;
    if (a.namespace !== 'kube-node-lease') throw forbid('can only access leases in the "kube-node-lease" system namespace');
    const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
    if (name !== node) throw forbid('can only access node lease with the same name as the requesting node');
  }

  csiNode(): void {
    const name = this.a.operation === 'CREATE' ? this.a.object?.metadata.name : this.a.name;
    if (name !== this.node) throw this.forbid('can only access CSINode with the same name as the requesting node');
  }

  resourceSlice(): void {
    const { a, node, forbid } = this;
    if (a.operation === 'CREATE' && specOf(a.object)['nodeName'] !== node) throw forbid('can only create ResourceSlice with the same NodeName as the requesting node');
    if (a.operation === 'DELETE' && specOf(a.oldObject)['nodeName'] !== node) throw forbid('can only delete ResourceSlice with the same NodeName as the requesting node');
  }

  async csr(): Promise<void> {
    const { a, node, forbid } = this;
    if (a.operation !== 'CREATE') return;
    const spec = specOf(a.object);
    const signer = str(spec['signerName']);
    if (signer !== 'kubernetes.io/kubelet-serving' && signer !== 'kubernetes.io/kube-apiserver-client-kubelet') return;
    const x509 = await loadX509();
    let cn: string;
    try {
      cn = new x509.Pkcs10CertificateRequest(Buffer.from(str(spec['request']), 'base64').toString('latin1')).subjectName.getField('CN')[0] ?? '';
    } catch (err) {
      throw forbid(`unable to parse csr: ${(err as Error).message}`);
    }
    if (cn !== `system:node:${node}`) throw forbid(`can only create a node CSR with CN=system:node:${node}`);
  }
}
