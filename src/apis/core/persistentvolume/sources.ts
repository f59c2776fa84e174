// The volume sources of a PersistentVolume spec (the source loop of kube's ValidatePersistentVolumeSpec
// and its validate*PersistentVolumeSource helpers): exactly one source, each checked as kube does,
// with kube's path segments (the GCE disk reports under `persistentDisk`, a second CephFS source
// as `cephFS`). The PV flavours differ from the pod's: secret references name their namespace.
// Counterpart of pkg/apis/core/validation/validation.go (ValidatePersistentVolumeSpec).
import { forbidden, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isInRange } from '../../../apimachinery/validation/validation.ts';
import { validatePathNoBacksteps } from '../pod/volumes.ts';
import { child, has, list, num, obj, optStr, str, type Obj } from '../pod/spec-access.ts';

type Check = (src: Obj, p: FieldPath, pvName: string) => FieldError[];

const ISCSI_IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const ISCSI_EUI = /^eui.[A-Za-z0-9]{16}$/;
const ISCSI_NAA = /^naa.[A-Za-z0-9]{32}$/;
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const FORMAT = 'must be valid format';

const req = (o: Obj, k: string, p: FieldPath): FieldError[] => (str(o, k) === '' ? [required(p.child(k))] : []);
const label = (v: string, p: FieldPath): FieldError[] => isDNS1123Label(v).map((m) => invalid(p, v, m));
const subdomain = (v: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));
const iscsiPrefix = (v: string): boolean => v.startsWith('iqn') || v.startsWith('eui') || v.startsWith('naa');

/** The iqn/eui/naa forms kube accepts for a target or an initiator name. */
function iscsiNameErrors(v: string): boolean {
  if (v.startsWith('iqn')) return !ISCSI_IQN.test(v);
  if (v.startsWith('eui')) return !ISCSI_EUI.test(v);
  if (v.startsWith('naa')) return !ISCSI_NAA.test(v);
  return false;
}

const iscsi: Check = (s, p, pvName) => {
  const errs = req(s, 'targetPortal', p);
  if (has(s, 'initiatorName') && `${pvName}:${str(s, 'targetPortal')}`.length > 64) {
    errs.push(invalid(p.child('targetportal'), str(s, 'targetPortal'),
      'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  const iqn = str(s, 'iqn');
  if (iqn === '') errs.push(required(p.child('iqn')));
  else if (!iscsiPrefix(iqn) || iscsiNameErrors(iqn)) errs.push(invalid(p.child('iqn'), iqn, FORMAT));
  const lun = num(s, 'lun') ?? 0;
  if (lun < 0 || lun > 255) errs.push(invalid(p.child('lun'), lun, isInRange(lun, 0, 255)[0] ?? ''));
  if ((s['chapAuthDiscovery'] === true || s['chapAuthSession'] === true) && !has(s, 'secretRef')) errs.push(required(p.child('secretRef')));
  const secret = child(s, 'secretRef');
  if (secret !== undefined && str(secret, 'name') === '') errs.push(required(p.child('secretRef', 'name')));
  const initiator = optStr(s, 'initiatorName');
  if (initiator !== undefined) {
    if (!iscsiPrefix(initiator)) errs.push(invalid(p.child('initiatorname'), initiator, FORMAT));
    if (iscsiNameErrors(initiator)) errs.push(invalid(p.child('initiatorname'), initiator, FORMAT));
  }
  return errs;
};

const fc: Check = (s, p) => {
  const errs: FieldError[] = [];
  const wwns = list(s, 'targetWWNs');
  const wwids = list(s, 'wwids');
  if (wwns.length === 0 && wwids.length === 0) errs.push(required(p.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length > 0 && wwids.length > 0) errs.push(invalid(p.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length > 0) {
    const lun = num(s, 'lun');
    if (lun === undefined) errs.push(required(p.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(p.child('lun'), lun, isInRange(lun, 0, 255)[0] ?? ''));
  }
  return errs;
};

const partition = (s: Obj, p: FieldPath): FieldError[] => {
  const n = num(s, 'partition') ?? 0;
  // kube checks 0..255 but reports the 1..255 range
  return n < 0 || n > 255 ? [invalid(p.child('partition'), n, 'must be between 1 and 255, inclusive')] : [];
};

const glusterfs: Check = (s, p) => {
  const errs = [...req(s, 'endpoints', p), ...req(s, 'path', p)];
  const ns = optStr(s, 'endpointsNamespace');
  if (ns === '') errs.push(invalid(p.child('endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
  else if (ns !== undefined) errs.push(...label(ns, p.child('endpointsNamespace')));
  return errs;
};

const flocker: Check = (s, p) => {
  const errs: FieldError[] = [];
  const name = str(s, 'datasetName');
  const uuid = str(s, 'datasetUUID');
  if (name === '' && uuid === '') errs.push(required(p, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uuid !== '') errs.push(invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(invalid(p.child('datasetName'), name, "must not contain '/'"));
  return errs;
};

const nfs: Check = (s, p) => {
  const errs = [...req(s, 'server', p), ...req(s, 'path', p)];
  if (!str(s, 'path').startsWith('/')) errs.push(invalid(p.child('path'), str(s, 'path'), 'must be an absolute path'));
  return errs;
};

const QUOBYTE_REGISTRY = 'must be a host:port pair or multiple pairs separated by commas';
/** net.SplitHostPort's acceptance: host:port, or [host]:port for IPv6. */
const isHostPort = (v: string): boolean => (v.startsWith('[') ? /^\[[^\]]*\]:[^:]*$/.test(v) : /^[^:[\]]*:[^:[\]]*$/.test(v));
const quobyte: Check = (s, p) => {
  const errs: FieldError[] = [];
  const registry = str(s, 'registry');
  if (registry === '') errs.push(required(p.child('registry'), QUOBYTE_REGISTRY));
  else if (str(s, 'tenant').length >= 65) errs.push(required(p.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const pair of registry.split(',')) if (!isHostPort(pair)) errs.push(invalid(p.child('registry'), registry, QUOBYTE_REGISTRY));
  return [...errs, ...req(s, 'volume', p)];
};

const cinder: Check = (s, p) => {
  const errs = req(s, 'volumeID', p);
  const ref = child(s, 'secretRef');
  if (ref !== undefined) errs.push(...req(ref, 'name', p.child('secretRef')), ...req(ref, 'namespace', p.child('secretRef')));
  return errs;
};

const flex: Check = (s, p) => {
  const errs = req(s, 'driver', p);
  for (const k of Object.keys(child(s, 'options') ?? {})) {
    const slash = k.indexOf('/');
    const normalized = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      errs.push(invalid(p.child('options').key(k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
};

const azureFile: Check = (s, p) => {
  const errs = [...req(s, 'secretName', p), ...req(s, 'shareName', p)];
  if (optStr(s, 'secretNamespace') === '') errs.push(required(p.child('secretNamespace')));
  return errs;
};

const azureDisk: Check = (s, p) => {
  const errs = [...req(s, 'diskName', p), ...req(s, 'diskURI', p)];
  const caching = optStr(s, 'cachingMode');
  if (caching !== undefined && !['None', 'ReadOnly', 'ReadWrite'].includes(caching)) errs.push(notSupported(p.child('cachingMode'), caching, ['None', 'ReadOnly', 'ReadWrite']));
  const kind = optStr(s, 'kind');
  if (kind !== undefined && !['Dedicated', 'Managed', 'Shared'].includes(kind)) errs.push(notSupported(p.child('kind'), kind, ['Dedicated', 'Managed', 'Shared']));
  const uri = str(s, 'diskURI');
  if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(notSupported(p.child('diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (kind !== undefined && kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(notSupported(p.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
};

const storageos: Check = (s, p) => {
  const errs: FieldError[] = [];
  const name = str(s, 'volumeName');
  if (name === '') errs.push(required(p.child('volumeName')));
  else errs.push(...label(name, p.child('volumeName')));
  if (str(s, 'volumeNamespace') !== '') errs.push(...label(str(s, 'volumeNamespace'), p.child('volumeNamespace')));
  const ref = child(s, 'secretRef');
  if (ref !== undefined) errs.push(...req(ref, 'name', p.child('secretRef')), ...req(ref, 'namespace', p.child('secretRef')));
  return errs;
};

/** ValidateCSIDriverName: required, at most 63 bytes, a DNS subdomain once lowercased. */
export function validateCSIDriverName(driver: string, p: FieldPath): FieldError[] {
  if (driver === '') return [required(p)];
  const errs: FieldError[] = [];
  if (driver.length > 63) errs.push(tooLong(p, '', 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(p, driver, m));
  return errs;
}

/** validatePVSecretReference: name a DNS subdomain, namespace a DNS label, both required. */
function secretReference(ref: Obj, p: FieldPath): FieldError[] {
  const name = str(ref, 'name');
  const ns = str(ref, 'namespace');
  return [
    ...(name === '' ? [required(p.child('name'))] : subdomain(name, p.child('name'))),
    ...(ns === '' ? [required(p.child('namespace'))] : label(ns, p.child('namespace'))),
  ];
}

const csi: Check = (s, p) => {
  const errs = [...validateCSIDriverName(str(s, 'driver'), p.child('driver')), ...req(s, 'volumeHandle', p)];
  for (const k of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    const ref = child(s, k);
    if (ref !== undefined) errs.push(...secretReference(ref, p.child(k)));
  }
  return errs;
};

const hostPath: Check = (s, p) => {
  if (str(s, 'path') === '') return [required(p.child('path'))];
  const errs = validatePathNoBacksteps(str(s, 'path'), p.child('path'));
  const type = optStr(s, 'type');
  if (type !== undefined && !HOST_PATH_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, HOST_PATH_TYPES));
  return errs;
};

const local: Check = (s, p) => (str(s, 'path') === '' ? [required(p.child('path'))] : validatePathNoBacksteps(str(s, 'path'), p.child('path')));

/** kube's order; `errPath` is the segment the source's own errors are reported under, `dupPath` a second source's. */
const PV_SOURCES: readonly { key: string; check: Check; errPath?: string; dupPath?: string }[] = [
  { key: 'hostPath', check: hostPath },
  { key: 'gcePersistentDisk', errPath: 'persistentDisk', check: (s, p) => [...req(s, 'pdName', p), ...partition(s, p)] },
  { key: 'awsElasticBlockStore', check: (s, p) => [...req(s, 'volumeID', p), ...partition(s, p)] },
  { key: 'glusterfs', check: glusterfs },
  { key: 'flocker', check: flocker },
  { key: 'nfs', check: nfs },
  { key: 'rbd', check: (s, p) => [...(list(s, 'monitors').length === 0 ? [required(p.child('monitors'))] : []), ...req(s, 'image', p)] },
  { key: 'quobyte', check: quobyte },
  { key: 'cephfs', dupPath: 'cephFS', check: (s, p) => (list(s, 'monitors').length === 0 ? [required(p.child('monitors'))] : []) },
  { key: 'iscsi', check: iscsi },
  { key: 'cinder', check: cinder },
  { key: 'fc', check: fc },
  { key: 'flexVolume', check: flex },
  { key: 'azureFile', check: azureFile },
  { key: 'vsphereVolume', check: (s, p) => req(s, 'volumePath', p) },
  { key: 'photonPersistentDisk', check: (s, p) => req(s, 'pdID', p) },
  { key: 'portworxVolume', check: (s, p) => req(s, 'volumeID', p) },
  { key: 'azureDisk', check: azureDisk },
  { key: 'scaleIO', check: (s, p) => [...req(s, 'gateway', p), ...req(s, 'system', p), ...req(s, 'volumeName', p)] },
  { key: 'local', check: local },
  { key: 'storageos', check: storageos },
  { key: 'csi', check: csi },
];

/** Every key of a PersistentVolumeSource, in kube's field order (for the immutability diff). */
export const PV_SOURCE_KEYS: readonly string[] = PV_SOURCES.map((s) => s.key);

/**
 * The source checks: one source, valid. `nodeAffinitySet` feeds the local volume's requirement.
 * flexVolume is counted but never refused as a second source (kube's loop has no check there).
 */
export function validatePersistentVolumeSources(spec: Obj, pvName: string, nodeAffinitySet: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const s of PV_SOURCES) {
    const src = obj(spec[s.key]);
    if (src === undefined) continue;
    if (n > 0 && s.key !== 'flexVolume') {
      errs.push(forbidden(p.child(s.dupPath ?? s.key), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...s.check(src, p.child(s.errPath ?? s.key), pvName));
    if (s.key === 'local' && !nodeAffinitySet) errs.push(required(p.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (n === 0) errs.push(required(p, 'must specify a volume type'));
  return errs;
}
