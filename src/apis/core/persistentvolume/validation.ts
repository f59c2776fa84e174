// PersistentVolume validation (ValidatePersistentVolume, ValidatePersistentVolumeSpec,
// ValidatePersistentVolumeUpdate of pkg/apis/core/validation). The spec check also serves a
// VolumeAttachment's inline volume spec (`inline`: a CSI source only, no capacity, claim, class or
// affinity, Retain, Filesystem). MutablePVNodeAffinity is off in v1.36: node affinity is fixed once set.
import { fieldPath, forbidden, GoSyntax, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateNodeSelector } from '../pod/affinity.ts';
import { goStruct, NODE_SELECTOR_TERM } from '../pod/go-struct.ts';
import { child, has, list, obj, objects, type Obj } from '../pod/spec-access.ts';
import { validateAccessModes } from '../persistentvolumeclaim/validation.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { PersistentVolume } from '../v1/types.ts';
import { persistentVolumeSourceDiff } from './source-value.ts';
import { validatePersistentVolumeSources } from './sources.ts';

type RO<T> = DeepReadonly<T>;
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const INLINE = 'may not be specified in the context of inline volumes';

const className = (v: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));

/** validateBasicResource and ValidatePositiveQuantityValue of one capacity. */
function capacityErrors(q: unknown, p: FieldPath): FieldError[] {
  const text = typeof q === 'number' ? String(q) : typeof q === 'string' ? q : '';
  const v = parseQuantity(text);
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  if (v < 0) errs.push(invalid(p, -Math.ceil(-v), 'must be a valid resource quantity'));
  if (v <= 0) errs.push(invalid(p, text, 'must be greater than zero'));
  return errs;
}

/** validateVolumeNodeAffinity: `required` must be there and be a valid node selector. */
function validateVolumeNodeAffinity(na: Obj, p: FieldPath): FieldError[] {
  const req = child(na, 'required');
  return req === undefined ? [required(p.child('required'), 'must specify required node constraints')] : validateNodeSelector(req, true, p.child('required'));
}

export function validatePersistentVolumeSpec(spec: Obj, pvName: string, inline: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (inline) {
    if (has(spec, 'claimRef')) errs.push(forbidden(p.child('claimRef'), INLINE));
    if (Object.keys(child(spec, 'capacity') ?? {}).length > 0) errs.push(forbidden(p.child('capacity'), INLINE));
    if (!has(spec, 'csi')) errs.push(required(p.child('csi'), 'has to be specified in the context of inline volumes'));
  }
  const modes = list(spec, 'accessModes').map((m) => (typeof m === 'string' ? m : ''));
  if (modes.length === 0) errs.push(required(p.child('accessModes')));
  errs.push(...validateAccessModes(modes, p.child('accessModes')));
  if (!inline) {
    const capacity = child(spec, 'capacity') ?? {};
    const keys = Object.keys(capacity);
    if (keys.length === 0) errs.push(required(p.child('capacity')));
    if (!keys.includes('storage') || keys.length > 1) {
      // Go prints the map with its keys sorted
      const sorted = Object.fromEntries(keys.sort().map((k) => [k, capacity[k]]));
      errs.push(notSupported(p.child('capacity'), sorted, ['storage']));
    }
    for (const k of keys) errs.push(...capacityErrors(capacity[k], p.child('capacity').key(k)));
  }
  const policy = typeof spec['persistentVolumeReclaimPolicy'] === 'string' ? spec['persistentVolumeReclaimPolicy'] : '';
  if (policy !== '') {
    if (inline && policy !== 'Retain') errs.push(forbidden(p.child('persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
    else if (!inline && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported(p.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
  }
  const na = obj(spec['nodeAffinity']);
  if (na !== undefined) {
    if (inline) errs.push(forbidden(p.child('nodeAffinity'), INLINE));
    else errs.push(...validateVolumeNodeAffinity(na, p.child('nodeAffinity')));
  }
  errs.push(...validatePersistentVolumeSources(spec, pvName, na !== undefined && !inline, p));
  const hostPath = child(spec, 'hostPath');
  if (hostPath !== undefined && cleanPath(String(hostPath['path'] ?? '')) === '/' && policy === 'Recycle') {
    errs.push(forbidden(p.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const sc = typeof spec['storageClassName'] === 'string' ? spec['storageClassName'] : '';
  if (sc !== '') {
    if (inline) errs.push(forbidden(p.child('storageClassName'), INLINE));
    else errs.push(...className(sc, p.child('storageClassName')));
  }
  const mode = spec['volumeMode'];
  if (typeof mode === 'string') {
    if (inline && mode !== 'Filesystem') errs.push(forbidden(p.child('volumeMode'), 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
    else if (!inline && !VOLUME_MODES.includes(mode)) errs.push(notSupported(p.child('volumeMode'), mode, VOLUME_MODES));
  }
  const vac = spec['volumeAttributesClassName'];
  if (typeof vac === 'string') {
    if (vac === '') errs.push(required(p.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...className(vac, p.child('volumeAttributesClassName')));
    if (!has(spec, 'csi')) errs.push(required(p.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** path.Clean, enough to tell whether a path is the root. */
function cleanPath(v: string): string {
  if (!v.startsWith('/')) return v;
  const parts: string[] = [];
  for (const seg of v.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}

export function validatePersistentVolume(pv: RO<PersistentVolume>): FieldError[] {
  return [
    ...validateObjectMeta(pv.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }),
    ...validatePersistentVolumeSpec((pv.spec ?? {}) as Obj, pv.metadata.name ?? '', false, fieldPath('spec')),
  ];
}

export const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';
/** The sources that take mount options (pkg/volume/validation checkMountOption). */
const MOUNTABLE = ['gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder', 'cephfs', 'azureFile',
  'vsphereVolume', 'azureDisk', 'photonPersistentDisk'];

/** volumevalidation.ValidatePersistentVolume: the legacy mount-options annotation only on sources that mount. */
export function validateMountOptionAnnotation(pv: RO<PersistentVolume>): FieldError[] {
  const spec = (pv.spec ?? {}) as Obj;
  if (MOUNTABLE.some((k) => has(spec, k)) || !Object.hasOwn(pv.metadata.annotations ?? {}, MOUNT_OPTIONS_ANNOTATION)) return [];
  return [forbidden(fieldPath('metadata', 'annotations', MOUNT_OPTIONS_ANNOTATION), 'may not specify mount options for this volume type')];
}

/** The beta topology labels kube lets a PV's node affinity move to their GA names. */
const BETA_TO_GA: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
};

/** The old affinity with each beta key the new one names by its GA name renamed, for comparison. */
function maskBetaKeys(next: Obj | undefined, old: Obj | undefined): unknown {
  if (next === undefined || old === undefined) return old;
  const newTerms = objects(child(next, 'required'), 'nodeSelectorTerms');
  const oldTerms = objects(child(old, 'required'), 'nodeSelectorTerms');
  const terms = oldTerms.map((t, i) => ({ ...t, matchExpressions: objects(t, 'matchExpressions').map((rq, j) => {
    const key = String(rq['key'] ?? '');
    const newKey = objects(newTerms[i], 'matchExpressions')[j]?.['key'];
    return BETA_TO_GA[key] !== undefined && BETA_TO_GA[key] === newKey ? { ...rq, key: newKey } : rq;
  }) }));
  return { ...old, required: { ...child(old, 'required'), nodeSelectorTerms: terms } };
}

/** VolumeNodeAffinity as kube prints it in the immutability error. */
function nodeAffinityValue(na: Obj | undefined): GoSyntax {
  if (na === undefined) return new GoSyntax('null');
  const req = child(na, 'required');
  if (req === undefined) return new GoSyntax('{"Required":null}');
  const terms = objects(req, 'nodeSelectorTerms').map((t) => goStruct(t, NODE_SELECTOR_TERM).text);
  return new GoSyntax(`{"Required":{"NodeSelectorTerms":[${terms.join(',')}]}}`);
}

/** ValidatePersistentVolumeUpdate beyond the create checks and metadata. */
export function validatePersistentVolumeUpdate(pv: RO<PersistentVolume>, old: RO<PersistentVolume>): FieldError[] {
  const spec = (pv.spec ?? {}) as Obj;
  const oldSpec = (old.spec ?? {}) as Obj;
  const errs: FieldError[] = [];
  const diff = persistentVolumeSourceDiff(oldSpec, spec);
  if (diff !== undefined) errs.push(forbidden(fieldPath('spec', 'persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${diff}`));
  if ((spec['volumeMode'] ?? null) !== (oldSpec['volumeMode'] ?? null)) errs.push(invalid('volumeMode', spec['volumeMode'] ?? null, 'field is immutable'));
  const oldNA = obj(oldSpec['nodeAffinity']);
  const newNA = obj(spec['nodeAffinity']);
  if (oldNA !== undefined && !deepEqual(newNA ?? null, maskBetaKeys(newNA, oldNA) ?? null)) {
    errs.push(invalid('nodeAffinity', nodeAffinityValue(newNA), 'field is immutable, except for updating from beta label to GA'));
  }
  if (typeof oldSpec['volumeAttributesClassName'] === 'string' && typeof spec['volumeAttributesClassName'] !== 'string') {
    errs.push(forbidden(fieldPath('spec', 'volumeAttributesClassName'), 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}
