// Container environment (ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom and the downward
// API selectors shared with downwardAPI volumes).
// Counterpart of pkg/apis/core/validation/validation.go (ValidateEnv).
import { invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain } from '../../../apimachinery/validation/object-meta.ts';
import { isConfigMapKey, isRelaxedEnvVarName } from '../../../apimachinery/validation/validation.ts';
import { child, dns1123Label, obj, qualifiedName, str, type Obj } from './spec-access.ts';

/** The fieldPaths an env var may read (validEnvDownwardAPIFieldPathExpressions), sorted as kube lists them. */
export const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
/** What ConvertDownwardAPIFieldLabel accepts for v1 (before the per-use list above). */
const CONVERTIBLE = new Set(['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs']);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → path and subscript. */
function splitSubscript(path: string): { path: string; subscript: string } | undefined {
  if (!path.endsWith("']")) return undefined;
  const at = path.indexOf("['");
  if (at < 0) return undefined;
  return { path: path.slice(0, at), subscript: path.slice(at + 2, -2) };
}

export function validateObjectFieldSelector(fs: Obj, expressions: readonly string[], p: FieldPath): FieldError[] {
  const version = str(fs, 'apiVersion');
  const fp = str(fs, 'fieldPath');
  if (version === '') return [required(p.child('apiVersion'))];
  if (fp === '') return [required(p.child('fieldPath'))];
  const split = splitSubscript(fp);
  let conversionError: string | undefined;
  if (version !== 'v1') conversionError = `unsupported pod version: ${version}`;
  else if (split !== undefined && split.path !== 'metadata.annotations' && split.path !== 'metadata.labels') {
    conversionError = `field label does not support subscript: ${fp}`;
  } else if (split === undefined && !CONVERTIBLE.has(fp) && fp !== 'spec.host') conversionError = `field label not supported: ${fp}`;
  if (conversionError !== undefined) return [invalid(p.child('fieldPath'), fp, `error converting fieldPath: ${conversionError}`)];
  if (split !== undefined) {
    return split.path === 'metadata.annotations' ? qualifiedName(split.subscript.toLowerCase(), p) : qualifiedName(split.subscript, p);
  }
  const internal = fp === 'spec.host' ? 'spec.nodeName' : fp;
  return expressions.includes(internal) ? [] : [notSupported(p.child('fieldPath'), internal, expressions)];
}

export function validateResourceFieldSelector(fs: Obj, p: FieldPath, volume: boolean): FieldError[] {
  const resource = str(fs, 'resource');
  if (volume && str(fs, 'containerName') === '') return [required(p.child('containerName'))];
  if (resource === '') return [required(p.child('resource'))];
  if (!RESOURCE_FIELD_PATHS.includes(resource) && !resource.startsWith('requests.hugepages-') && !resource.startsWith('limits.hugepages-')) {
    return [notSupported(p.child('resource'), resource, RESOURCE_FIELD_PATHS)];
  }
  return [];
}

function validateKeySelector(s: Obj, p: FieldPath): FieldError[] {
  const errs = nameIsDNSSubdomain(str(s, 'name'), false).map((m) => invalid(p.child('name'), str(s, 'name'), m));
  const key = str(s, 'key');
  if (key === '') errs.push(required(p.child('key')));
  else for (const m of isConfigMapKey(key)) errs.push(invalid(p.child('key'), key, m));
  return errs;
}

function validateFileKeySelector(s: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(s, 'key');
  if (key === '') errs.push(required(p.child('key')));
  else for (const m of isRelaxedEnvVarName(key)) errs.push(invalid(p.child('key'), key, m));
  const vol = str(s, 'volumeName');
  if (vol === '') errs.push(required(p.child('volumeName')));
  else errs.push(...dns1123Label(vol, p.child('volumeName')));
  const path = str(s, 'path');
  if (path === '') errs.push(required(p.child('path')));
  else if (path.split('/').includes('..')) errs.push(invalid(p.child('path'), path, "must not contain '..'"));
  return errs;
}

function validateValueFrom(ev: Obj, p: FieldPath): FieldError[] {
  const from = child(ev, 'valueFrom');
  if (from === undefined) return [];
  const errs: FieldError[] = [];
  let n = 0;
  const fieldRef = child(from, 'fieldRef');
  if (fieldRef !== undefined) { n++; errs.push(...validateObjectFieldSelector(fieldRef, ENV_FIELD_PATHS, p.child('fieldRef'))); }
  const resourceRef = child(from, 'resourceFieldRef');
  if (resourceRef !== undefined) { n++; errs.push(...validateResourceFieldSelector(resourceRef, p.child('resourceFieldRef'), false)); }
  for (const k of ['configMapKeyRef', 'secretKeyRef'] as const) {
    const ref = child(from, k);
    if (ref !== undefined) { n++; errs.push(...validateKeySelector(ref, p.child(k))); }
  }
  const fileRef = child(from, 'fileKeyRef');
  if (fileRef !== undefined) { n++; errs.push(...validateFileKeySelector(fileRef, p.child('fileKeyRef'))); }
  if (n === 0) errs.push(invalid(p, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
  else if (str(ev, 'value') !== '') errs.push(invalid(p, '', 'may not be specified when `value` is not empty'));
  else if (n > 1) errs.push(invalid(p, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv (relaxed names: RelaxedEnvironmentVariableValidation is GA). */
export function validateEnv(vars: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  vars.forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const ip = p.index(i);
    const name = str(ev, 'name');
    if (name === '') errs.push(required(ip.child('name')));
    else for (const m of isRelaxedEnvVarName(name)) errs.push(invalid(ip.child('name'), name, m));
    errs.push(...validateValueFrom(ev, ip.child('valueFrom')));
  });
  return errs;
}

export function validateEnvFrom(sources: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  sources.forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const ip = p.index(i);
    const prefix = str(ev, 'prefix');
    if (prefix !== '') for (const m of isRelaxedEnvVarName(prefix)) errs.push(invalid(ip.child('prefix'), prefix, m));
    let n = 0;
    for (const k of ['configMapRef', 'secretRef'] as const) {
      const ref = child(ev, k);
      if (ref === undefined) continue;
      n++;
      const name = str(ref, 'name');
      if (name === '') errs.push(required(ip.child(k, 'name')));
      else for (const m of nameIsDNSSubdomain(name, true)) errs.push(invalid(ip.child(k, 'name'), name, m));
    }
    // kube reports these two on the list, not the entry
    if (n === 0) errs.push(invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalid(p, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
