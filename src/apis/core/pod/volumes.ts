// Pod volumes (ValidateVolumes, validateVolumeSource and the per-source checks of
// pkg/apis/core/validation). A volume with any error is left out of the returned names, so a
// mount of it is also reported NotFound, as kube does.
import { duplicate, forbidden, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../v1/quantity.ts';
import { nameIsDNSSubdomain } from '../../../apimachinery/validation/object-meta.ts';
import { validatePersistentVolumeClaimSpec } from '../persistentvolumeclaim/validation.ts';
import type { PersistentVolumeClaimSpec, Volume } from '../v1/types.ts';
import { validateObjectFieldSelector, validateResourceFieldSelector, VOLUME_FIELD_PATHS } from './env.ts';
import { child, dns1123Label, has, num, obj, objects, optStr, str, validatePullPolicy, type Obj } from './spec-access.ts';

export const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

/** A path inside the volume: relative and without '..' segments (validateLocalDescendingPath). */
export function validateLocalDescendingPath(target: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalid(p, target, 'must be a relative path'));
  return [...errs, ...validatePathNoBacksteps(target, p)];
}

export function validatePathNoBacksteps(target: string, p: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [invalid(p, target, "must not contain '..'")] : [];
}

/** ValidateLocalNonReservedPath: also refuses a first segment starting with '..' (kubelet's own ..data links). */
export function validateLocalNonReservedPath(target: string, p: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, p);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(p, target, "must not start with '..'"));
  return errs;
}

function validateMode(o: Obj, key: string, p: FieldPath): FieldError[] {
  const mode = num(o, key);
  return mode !== undefined && (mode > 0o777 || mode < 0) ? [invalid(p.child(key), mode, FILE_MODE_ERROR)] : [];
}

function validateKeyToPath(kp: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(kp, 'key') === '') errs.push(required(p.child('key')));
  if (str(kp, 'path') === '') errs.push(required(p.child('path')));
  errs.push(...validateLocalNonReservedPath(str(kp, 'path'), p.child('path')));
  return [...errs, ...validateMode(kp, 'mode', p)];
}

function validateItems(src: Obj, p: FieldPath): FieldError[] {
  return objects(src, 'items').flatMap((kp, i) => validateKeyToPath(kp, p.child('items').index(i)));
}

function validateDownwardAPIFile(file: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(file, 'path') === '') errs.push(required(p.child('path')));
  errs.push(...validateLocalNonReservedPath(str(file, 'path'), p.child('path')));
  const fieldRef = child(file, 'fieldRef');
  const resourceRef = child(file, 'resourceFieldRef');
  if (fieldRef !== undefined) {
    errs.push(...validateObjectFieldSelector(fieldRef, VOLUME_FIELD_PATHS, p.child('fieldRef')));
    if (resourceRef !== undefined) errs.push(invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceRef !== undefined) {
    errs.push(...validateResourceFieldSelector(resourceRef, p.child('resourceFieldRef'), true));
  } else {
    errs.push(required(p, 'one of fieldRef and resourceFieldRef is required'));
  }
  return [...errs, ...validateMode(file, 'mode', p)];
}

function validateProjected(src: Obj, p: FieldPath): FieldError[] {
  const errs = validateMode(src, 'defaultMode', p);
  const paths = new Set<string>();
  const claim = (path: string, bad: unknown): void => {
    if (paths.has(path)) errs.push(invalid(p, bad, 'conflicting duplicate paths'));
    paths.add(path);
  };
  objects(src, 'sources').forEach((s, i) => {
    const sp = p.child('sources').index(i);
    let n = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = child(s, kind);
      if (ref === undefined) continue;
      n++;
      if (str(ref, 'name') === '') errs.push(required(sp.child(kind, 'name')));
      objects(ref, 'items').forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, sp.child(kind, 'items').index(j)));
        if (str(kp, 'path') !== '') claim(str(kp, 'path'), str(ref, 'name'));
      });
    }
    const downward = child(s, 'downwardAPI');
    if (downward !== undefined) {
      n++;
      for (const f of objects(downward, 'items')) {
        errs.push(...validateDownwardAPIFile(f, sp.child('downwardAPI')));
        if (str(f, 'path') !== '') claim(str(f, 'path'), str(f, 'path'));
      }
    }
    const token = child(s, 'serviceAccountToken');
    if (token !== undefined) {
      n++;
      const exp = num(token, 'expirationSeconds') ?? 0;
      const ep = sp.child('serviceAccountToken', 'expirationSeconds');
      if (exp < 600) errs.push(invalid(ep, exp, 'may not specify a duration less than 10 minutes'));
      if (exp > 2 ** 32) errs.push(invalid(ep, exp, 'may not specify a duration larger than 2^32 seconds'));
      if (str(token, 'path') === '') errs.push(required(p.child('path')));
      else errs.push(...validateLocalNonReservedPath(str(token, 'path'), p.child('path')));
    }
    if (has(s, 'clusterTrustBundle')) n++;
    if (has(s, 'podCertificate')) n++;
    if (n > 1) errs.push(forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function validateCSIDriverName(driver: string, p: FieldPath): FieldError[] {
  if (driver === '') return [required(p)];
  const errs: FieldError[] = [];
  if (driver.length > 63) errs.push(tooLong(p, '', 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(p, driver, m));
  return errs;
}

const ISCSI_PREFIXES = ['iqn', 'eui', 'naa'];

interface SourceContext {
  readonly resourceIsPod: boolean;
  /** The pod's name (pods only, not templates): ephemeral volumes' claims are named after it. */
  readonly podName: string | undefined;
  readonly volumeName: string;
  readonly volumePath: FieldPath;
}
type SourceCheck = (src: Obj, p: FieldPath, ctx: SourceContext) => FieldError[];

/** Every volume source in kube's order, with the path segment kube names it by in errors. */
const SOURCES: readonly { readonly key: string; readonly goName?: string; readonly check?: SourceCheck }[] = [
  { key: 'emptyDir', check: (s, p) => {
    const limit = s['sizeLimit'];
    const v = limit === undefined || limit === null ? undefined : parseQuantity(limit as string | number);
    return v !== undefined && v < 0 ? [forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
  } },
  { key: 'hostPath', check: (s, p) => {
    if (str(s, 'path') === '') return [required(p.child('path'))];
    const errs = validatePathNoBacksteps(str(s, 'path'), p.child('path'));
    const type = optStr(s, 'type');
    const types = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
    if (type !== undefined && !types.includes(type)) errs.push(notSupported(p.child('type'), type, types));
    return errs;
  } },
  { key: 'gitRepo', check: (s, p) => [
    ...(str(s, 'repository') === '' ? [required(p.child('repository'))] : []),
    ...validateLocalDescendingPath(str(s, 'directory'), p.child('directory'))] },
  { key: 'gcePersistentDisk' }, { key: 'awsElasticBlockStore' },
  { key: 'secret', check: (s, p) => [
    ...(str(s, 'secretName') === '' ? [required(p.child('secretName'))] : []),
    ...validateMode(s, 'defaultMode', p), ...validateItems(s, p)] },
  { key: 'nfs', check: (s, p) => {
    const errs: FieldError[] = [];
    if (str(s, 'server') === '') errs.push(required(p.child('server')));
    if (str(s, 'path') === '') errs.push(required(p.child('path')));
    if (!str(s, 'path').startsWith('/')) errs.push(invalid(p.child('path'), str(s, 'path'), 'must be an absolute path'));
    return errs;
  } },
  { key: 'iscsi', check: (s, p) => {
    const errs: FieldError[] = [];
    if (str(s, 'targetPortal') === '') errs.push(required(p.child('targetPortal')));
    const iqn = str(s, 'iqn');
    if (iqn === '') errs.push(required(p.child('iqn')));
    else if (!ISCSI_PREFIXES.some((x) => iqn.startsWith(x))) errs.push(invalid(p.child('iqn'), iqn, 'must be valid format starting with iqn, eui, or naa'));
    const lun = num(s, 'lun') ?? 0;
    if (lun < 0 || lun > 255) errs.push(invalid(p.child('lun'), lun, 'must be between 0 and 255, inclusive'));
    if ((s['chapAuthDiscovery'] === true || s['chapAuthSession'] === true) && !has(s, 'secretRef')) errs.push(required(p.child('secretRef')));
    return errs;
  } },
  { key: 'glusterfs' }, { key: 'flocker' },
  { key: 'persistentVolumeClaim', check: (s, p) => (str(s, 'claimName') === '' ? [required(p.child('claimName'))] : []) },
  { key: 'rbd' }, { key: 'cinder' }, { key: 'cephfs', goName: 'cephFS' }, { key: 'quobyte' },
  // kube's own spelling of this path segment
  { key: 'downwardAPI', goName: 'downwarAPI', check: (s, p) => [
    ...validateMode(s, 'defaultMode', p), ...objects(s, 'items').flatMap((f) => validateDownwardAPIFile(f, p))] },
  { key: 'fc' }, { key: 'flexVolume' },
  { key: 'configMap', check: (s, p) => [
    ...(str(s, 'name') === '' ? [required(p.child('name'))] : []),
    ...validateMode(s, 'defaultMode', p), ...validateItems(s, p)] },
  { key: 'azureFile' }, { key: 'vsphereVolume' }, { key: 'photonPersistentDisk' }, { key: 'portworxVolume' }, { key: 'azureDisk' },
  { key: 'storageos' }, { key: 'projected', check: validateProjected }, { key: 'scaleIO' },
  { key: 'csi', check: (s, p) => {
    const errs = validateCSIDriverName(str(s, 'driver'), p.child('driver'));
    const ref = child(s, 'nodePublishSecretRef');
    if (ref !== undefined && str(ref, 'name') === '') errs.push(required(p.child('nodePublishSecretRef', 'name')));
    return errs;
  } },
  { key: 'ephemeral', check: (s, p, ctx) => {
    const template = child(s, 'volumeClaimTemplate');
    if (template === undefined) return [required(p.child('volumeClaimTemplate'))];
    const errs = validatePersistentVolumeClaimSpec((child(template, 'spec') ?? {}) as DeepReadonly<PersistentVolumeClaimSpec>,
      p.child('volumeClaimTemplate', 'spec'));
    // the claim is named <pod>-<volume>: it must be a valid object name (kube reports it on `name` under the volume's path)
    if (ctx.podName !== undefined && ctx.podName !== '' && ctx.volumeName !== '') {
      const claim = `${ctx.podName}-${ctx.volumeName}`;
      for (const m of nameIsDNSSubdomain(claim, false)) errs.push(invalid(ctx.volumePath.child('name'), ctx.volumeName, `PVC name ${JSON.stringify(claim)}: ${m}`));
    }
    return errs;
  } },
  { key: 'image', check: (s, p, ctx) => [
    ...(ctx.resourceIsPod && str(s, 'reference') === '' ? [required(p.child('reference'))] : []),
    ...validatePullPolicy(str(s, 'pullPolicy'), p.child('pullPolicy'))] },
];

function validateVolumeSource(v: Obj, p: FieldPath, ctx: SourceContext): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const s of SOURCES) {
    const src = obj(v[s.key]);
    if (src === undefined) continue;
    if (n > 0) {
      errs.push(forbidden(p.child(s.goName ?? s.key), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...(s.check?.(src, p.child(s.key), ctx) ?? []));
  }
  if (n === 0) errs.push(required(p, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the names of the valid volumes and the errors of the others. */
export function validateVolumes(volumes: DeepReadonly<Volume[]> | undefined, p: FieldPath, resourceIsPod: boolean, podName?: string):
  { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  const all = (Array.isArray(volumes) ? volumes : []).map((raw) => obj(raw) ?? {});
  // the claims the pod's ephemeral volumes will create
  const created = new Set(podName === undefined || podName === '' ? [] : all.filter((v) => has(v, 'ephemeral')).map((v) => `${podName}-${str(v, 'name')}`));
  all.forEach((v, i) => {
    const ip = p.index(i);
    const name = str(v, 'name');
    const el = validateVolumeSource(v, ip, { resourceIsPod, podName, volumeName: name, volumePath: ip });
    if (name === '') el.push(required(ip.child('name')));
    else el.push(...dns1123Label(name, ip.child('name')));
    if (names.has(name)) el.push(duplicate(ip.child('name'), name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
    const claimName = str(child(v, 'persistentVolumeClaim'), 'claimName');
    if (has(v, 'persistentVolumeClaim') && created.has(claimName)) {
      errs.push(invalid(ip.child('persistentVolumeClaim', 'claimName'), claimName, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { names, errs };
}
