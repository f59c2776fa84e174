// The API objects a pod names: secrets and config maps (in containers' env and envFrom, image pull
// secrets and volumes), claims (volumes and ephemeral volumes), as kube's pod helpers visit them;
// and the secrets a persistent volume names. Shared by NodeRestriction and the Node authorizer's graph.
// Counterpart of pkg/api/pod/util.go (VisitPodSecretNames, VisitPodConfigmapNames,
// HasAPIObjectReference) and pkg/api/v1/persistentvolume (VisitPVSecretNames).
import type { KubeObject } from '../../apimachinery/meta/types.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Json : undefined);
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Json => x !== undefined) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function specOf(pod: KubeObject): Json {
  return obj((pod as KubeObject & { spec?: unknown }).spec) ?? {};
}

const containers = (spec: Json): Json[] => [...arr(spec['initContainers']), ...arr(spec['containers']), ...arr(spec['ephemeralContainers'])];

/** VisitPodSecretNames over all containers, in kube's order; names may repeat. */
export function podSecretNames(pod: KubeObject): string[] {
  const spec = specOf(pod);
  const out = arr(spec['imagePullSecrets']).map((r) => str(r['name']));
  for (const c of containers(spec)) {
    for (const e of arr(c['envFrom'])) { const r = obj(e['secretRef']); if (r !== undefined) out.push(str(r['name'])); }
    for (const e of arr(c['env'])) { const r = obj(obj(e['valueFrom'])?.['secretKeyRef']); if (r !== undefined) out.push(str(r['name'])); }
  }
  for (const v of arr(spec['volumes'])) {
    const ref = (src: string, field = 'secretRef'): void => { const r = obj(obj(v[src])?.[field]); if (r !== undefined) out.push(str(r['name'])); };
    const azure = obj(v['azureFile']);
    if (azure !== undefined) out.push(str(azure['secretName']));
    for (const s of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) ref(s);
    ref('csi', 'nodePublishSecretRef');
    const secret = obj(v['secret']);
    if (secret !== undefined) out.push(str(secret['secretName']));
    for (const s of arr(obj(v['projected'])?.['sources'])) { const r = obj(s['secret']); if (r !== undefined) out.push(str(r['name'])); }
  }
  return out.filter((n) => n !== '');
}

/** VisitPodConfigmapNames over all containers. */
export function podConfigMapNames(pod: KubeObject): string[] {
  const spec = specOf(pod);
  const out: string[] = [];
  for (const c of containers(spec)) {
    for (const e of arr(c['envFrom'])) { const r = obj(e['configMapRef']); if (r !== undefined) out.push(str(r['name'])); }
    for (const e of arr(c['env'])) { const r = obj(obj(e['valueFrom'])?.['configMapKeyRef']); if (r !== undefined) out.push(str(r['name'])); }
  }
  for (const v of arr(spec['volumes'])) {
    const cm = obj(v['configMap']);
    if (cm !== undefined) out.push(str(cm['name']));
    for (const s of arr(obj(v['projected'])?.['sources'])) { const r = obj(s['configMap']); if (r !== undefined) out.push(str(r['name'])); }
  }
  return out.filter((n) => n !== '');
}

/** The claims of a pod's volumes: persistentVolumeClaim, and `<pod>-<volume>` for ephemeral volumes. */
export function podClaimNames(pod: KubeObject): string[] {
  const out: string[] = [];
  for (const v of arr(specOf(pod)['volumes'])) {
    const pvc = obj(v['persistentVolumeClaim']);
    if (pvc !== undefined) out.push(str(pvc['claimName']));
    if (obj(v['ephemeral']) !== undefined) out.push(`${pod.metadata.name ?? ''}-${str(v['name'])}`);
  }
  return out.filter((n) => n !== '');
}

/** resourceclaim.Name for each of a pod's claims (named, or generated and recorded in its status), and its extended resource claim. */
export function podResourceClaimNames(pod: KubeObject): string[] {
  const status = obj((pod as KubeObject & { status?: unknown }).status) ?? {};
  const statuses = arr(status['resourceClaimStatuses']);
  const names = arr(specOf(pod)['resourceClaims']).map((c) => (str(c['resourceClaimName']) !== '' ? str(c['resourceClaimName'])
    : str(statuses.find((s) => str(s['name']) === str(c['name']))?.['resourceClaimName'])));
  const extended = obj(status['extendedResourceClaimStatus']);
  if (extended !== undefined) names.push(str(extended['resourceClaimName']));
  return names.filter((n) => n !== '');
}

/** VisitPVSecretNames: the (namespace, name) of each secret a persistent volume names that the kubelet reads. */
export function pvSecretRefs(pv: KubeObject): { namespace: string; name: string }[] {
  const spec = obj((pv as KubeObject & { spec?: unknown }).spec) ?? {};
  const out: { namespace: string; name: string }[] = [];
  const claimNS = str(obj(spec['claimRef'])?.['namespace']);
  const ref = (r: Json | undefined, defaultNS = ''): void => {
    if (r !== undefined && str(r['name']) !== '') out.push({ namespace: str(r['namespace']) === '' ? defaultNS : str(r['namespace']), name: str(r['name']) });
  };
  const azure = obj(spec['azureFile']);
  if (azure !== undefined && str(azure['secretName']) !== '') {
    out.push({ namespace: str(azure['secretNamespace']) === '' ? claimNS : str(azure['secretNamespace']), name: str(azure['secretName']) });
  }
  ref(obj(obj(spec['cephfs'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['cinder'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['flexVolume'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['rbd'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['scaleIO'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['iscsi'])?.['secretRef']), claimNS);
  ref(obj(obj(spec['storageos'])?.['secretRef']), claimNS);
  const csi = obj(spec['csi']);
  // The controller-side secrets of CSI are not the kubelet's.
  for (const f of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) {
    ref(obj(csi?.[f]));
  }
  return out;
}

const SKIPPED_VOLUMES = ['awsElasticBlockStore', 'azureDisk', 'cephfs', 'cinder', 'downwardAPI', 'emptyDir', 'fc', 'flexVolume', 'flocker',
  'gcePersistentDisk', 'gitRepo', 'hostPath', 'image', 'iscsi', 'nfs', 'photonPersistentDisk', 'portworxVolume', 'quobyte', 'rbd',
  'scaleIO', 'storageos', 'vsphereVolume'];
const VOLUME_REFERENCES: readonly [string, string][] = [
  ['configMap', 'configmaps (via configmap volumes)'], ['secret', 'secrets (via secret volumes)'], ['csi', 'csidrivers (via CSI volumes)'],
  ['glusterfs', 'endpoints (via glusterFS volumes)'], ['persistentVolumeClaim', 'persistentvolumeclaims'],
  ['ephemeral', 'persistentvolumeclaims (via ephemeral volumes)'], ['azureFile', 'secrets (via azureFile volumes)'],
];
const PROJECTED_REFERENCES: readonly [string, string][] = [
  ['configMap', 'configmaps (via projected volumes)'], ['secret', 'secrets (via projected volumes)'],
  ['serviceAccountToken', 'serviceaccounts (via projected volumes)'], ['clusterTrustBundle', 'clustertrustbundles'], ['podCertificate', 'podcertificates'],
];

/** HasAPIObjectReference: what API objects a (mirror) pod names, kube's words; throws for unknown volume types. */
export function apiObjectReference(pod: KubeObject): string | undefined {
  const spec = specOf(pod);
  if (str(spec['serviceAccountName']) !== '') return 'serviceaccounts';
  if (podSecretNames(pod).length > 0) return 'secrets';
  if (podConfigMapNames(pod).length > 0) return 'configmaps';
  if (arr(spec['resourceClaims']).length > 0) return 'resourceclaims';
  for (const v of arr(spec['volumes'])) {
    if (SKIPPED_VOLUMES.some((k) => v[k] !== undefined)) continue;
    const direct = VOLUME_REFERENCES.find(([k]) => v[k] !== undefined);
    if (direct !== undefined) return direct[1];
    const projected = obj(v['projected']);
    if (projected === undefined) throw new Error(`unknown volume type for volume  "${str(v['name'])}"`);
    for (const s of arr(projected['sources'])) {
      const hit = PROJECTED_REFERENCES.find(([k]) => s[k] !== undefined);
      if (hit !== undefined) return hit[1];
      if (s['downwardAPI'] === undefined) throw new Error(`unknown source for projected volume "${str(v['name'])}"`);
    }
  }
  return undefined;
}
