// Naming the field manager of a request (handlers' managerOrUserAgent) and validating the
// fieldManager query parameter (metav1 validation's ValidateFieldManager).
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go (managerOrUserAgent) and
// k8s.io/apimachinery/pkg/apis/meta/v1/validation.
import { fieldPath, invalid, required, tooLong } from '../errors/field-errors.ts';
import type { FieldError, FieldPath } from '../errors/field-errors.ts';

export const FIELD_MANAGER_MAX_LENGTH = 128;

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const isPrint = (ch: string): boolean => /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch);

/**
 * The manager kube records when the request names none: the User-Agent up to its first "/",
 * without unprintable characters, cut to 128 bytes ("kubectl/v1.36.0 (linux/amd64)" -> "kubectl").
 */
export function prefixFromUserAgent(userAgent: string): string {
  const head = userAgent.split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!isPrint(ch)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** managerOrUserAgent: the fieldManager parameter if set, else the User-Agent prefix. */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager !== undefined && fieldManager !== '' ? fieldManager : prefixFromUserAgent(userAgent ?? '');
}

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
export function validateFieldManager(fieldManager: string | undefined, path: FieldPath = fieldPath('fieldManager')): FieldError[] {
  const errs: FieldError[] = [];
  if (fieldManager === undefined) return errs;
  if (Buffer.byteLength(fieldManager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, '', FIELD_MANAGER_MAX_LENGTH));
  let offset = 0;
  for (const ch of fieldManager) {
    if (!isPrint(ch)) {
      const cp = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(path, fieldManager, `invalid character U+${cp} (at position ${offset})`));
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/**
 * The fieldManager part of ValidatePatchOptions: apply requires it. Wrap the result with
 * newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', errs) as kube does.
 */
export function validatePatchFieldManager(fieldManager: string | undefined, isApply: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (isApply && (fieldManager === undefined || fieldManager === '')) {
    errs.push(required(fieldPath('fieldManager'), 'is required for apply patch'));
  }
  return errs.concat(validateFieldManager(fieldManager));
}
