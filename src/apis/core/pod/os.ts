// The OS a pod declares (spec.os.name) rules out the other OS's settings (validateLinux,
// validateWindows).
// Counterpart of pkg/apis/core/validation/validation.go (validateLinux, validateWindows).
import { forbidden, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';
import { containersWithPath } from './security-context.ts';
import { child, has, obj } from './spec-access.ts';

const NOT_WINDOWS = 'cannot be set for a windows pod';
const NOT_LINUX = 'windows options cannot be set for a linux pod';

/** Pod security context fields, with where kube reports them (the v1 spec for those kube keeps in its internal securityContext). */
const POD_FIELDS_NOT_ON_WINDOWS: readonly (readonly [field: string, inSecurityContext: boolean])[] = [
  ['appArmorProfile', true], ['seLinuxOptions', true], ['hostUsers', false], ['hostPID', false], ['hostIPC', false],
  ['seccompProfile', true], ['fsGroup', true], ['fsGroupChangePolicy', true], ['sysctls', true], ['shareProcessNamespace', false],
  ['runAsUser', true], ['runAsGroup', true], ['supplementalGroups', true], ['supplementalGroupsPolicy', true], ['seLinuxChangePolicy', true],
];
const CONTAINER_FIELDS_NOT_ON_WINDOWS = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem',
  'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

function validateWindows(spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const sc = obj(spec.securityContext);
  const top = obj(spec) ?? {};
  for (const [field, inSC] of POD_FIELDS_NOT_ON_WINDOWS) {
    if (inSC) {
      const v = sc?.[field];
      // an empty sysctls list is Go's nil-or-empty: allowed
      if (has(sc, field) && !(Array.isArray(v) && v.length === 0 && field === 'sysctls')) errs.push(forbidden(p.child('securityContext', field), NOT_WINDOWS));
    } else {
      const v = top[field];
      // hostPID and hostIPC are plain booleans: only true counts
      const set = field === 'hostPID' || field === 'hostIPC' ? v === true : v !== undefined && v !== null;
      if (set) errs.push(forbidden(p.child(field), NOT_WINDOWS));
    }
  }
  for (const { c, path } of containersWithPath(spec, p)) {
    const csc = child(c, 'securityContext');
    for (const field of CONTAINER_FIELDS_NOT_ON_WINDOWS) {
      if (has(csc, field)) errs.push(forbidden(path.child('securityContext', field), NOT_WINDOWS));
    }
  }
  return errs;
}

function validateLinux(spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (child(obj(spec.securityContext), 'windowsOptions') !== undefined) errs.push(forbidden(p.child('securityContext', 'windowsOptions'), NOT_LINUX));
  for (const { c, path } of containersWithPath(spec, p)) {
    if (child(child(c, 'securityContext'), 'windowsOptions') !== undefined) errs.push(forbidden(path.child('securityContext', 'windowsOptions'), NOT_LINUX));
  }
  return errs;
}

/** The checks of the declared OS (after validateOS accepted the name). */
export function validateForOS(spec: DeepReadonly<PodSpec>, os: string, p: FieldPath): FieldError[] {
  if (os === 'linux') return validateLinux(spec, p);
  if (os === 'windows') return validateWindows(spec, p);
  return [];
}
