// Validators shared by the storage.k8s.io resources (pkg/apis/storage/validation).
import { invalid, required, tooLong, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';

const MAX_PROVISIONER_PARAMETER_SIZE = 256 * 1024;
const MAX_PROVISIONER_PARAMETER_LEN = 512;

/** validateProvisioner: required, and a qualified name once lowercased (the lowercased value is reported). */
export function validateProvisioner(provisioner: string, path: FieldPath): FieldError[] {
  if (provisioner.length === 0) return [required(path, '')];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((m) => invalid(path, lower, m));
}

/** validateParameters: at most 512 keys, keys non-empty, 256kB in total. */
export function validateParameters(params: DeepReadonly<Record<string, string>> | undefined, allowEmpty: boolean, path: FieldPath): FieldError[] {
  const p = params ?? {};
  const keys = Object.keys(p);
  if (keys.length > MAX_PROVISIONER_PARAMETER_LEN) return [tooLong(path, '', MAX_PROVISIONER_PARAMETER_LEN)];
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of keys) {
    if (k.length < 1) errs.push(invalid(path, k, 'field can not be empty.'));
    total += Buffer.byteLength(k) + Buffer.byteLength(p[k] ?? '');
  }
  if (total > MAX_PROVISIONER_PARAMETER_SIZE) errs.push(tooLong(path, '', MAX_PROVISIONER_PARAMETER_SIZE));
  if (!allowEmpty && keys.length === 0) errs.push(required(path, 'must contain at least one key/value pair'));
  return errs;
}
