// Secret validation (ValidateSecret / ValidateSecretUpdate): keys, the 1MiB total, the keys
// each well-known type requires, and immutability.
// Counterpart of pkg/apis/core/validation/validation.go (ValidateSecret).
import { fieldPath, forbidden, invalid, required, tooLong, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateObjectMeta, repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import { goJSONKind, goJSONParse } from '../../../apimachinery/validation/go-json.ts';
import { isConfigMapKey } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { base64DecodedLength, IMMUTABLE_WHEN_SET, MAX_SECRET_SIZE } from '../configmap/configmap.ts';
import type { Secret } from '../v1/types.ts';

export const SECRET_TYPES = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
const REDACTED = '<secret contents redacted>';

/** Go's json.Unmarshal into a map: the error text for the common failures. */
function jsonObjectError(b64: string): string | undefined {
  const r = goJSONParse(Buffer.from(b64, 'base64').toString('utf8'));
  if ('error' in r) return r.error;
  const v = r.value;
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  return `json: cannot unmarshal ${goJSONKind(v)} into Go value of type map[string]interface {}`;
}

export function validateSecret(s: DeepReadonly<Secret>): FieldError[] {
  const errs = validateObjectMeta(s.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const dataPath = fieldPath('data');
  const data = s.data ?? {};
  let total = 0;
  for (const key of Object.keys(data).sort()) {
    for (const m of isConfigMapKey(key)) errs.push(invalid(dataPath.key(key), key, m));
    total += base64DecodedLength(data[key] ?? '');
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong(dataPath, '', MAX_SECRET_SIZE));
  const has = (k: string): boolean => Object.hasOwn(data, k);
  switch (s.type ?? '') {
    case SECRET_TYPES.serviceAccountToken:
      if ((s.metadata.annotations?.[SERVICE_ACCOUNT_NAME_KEY] ?? '') === '') {
        errs.push(required(fieldPath('metadata', 'annotations').key(SERVICE_ACCOUNT_NAME_KEY)));
      }
      break;
    case SECRET_TYPES.dockercfg:
    case SECRET_TYPES.dockerConfigJSON: {
      const key = s.type === SECRET_TYPES.dockercfg ? '.dockercfg' : '.dockerconfigjson';
      if (!has(key)) { errs.push(required(dataPath.key(key))); break; }
      const err = jsonObjectError(data[key] ?? '');
      if (err !== undefined) errs.push(invalid(dataPath.key(key), REDACTED, err));
      break;
    }
    case SECRET_TYPES.basicAuth:
      if (!has('username') && !has('password')) {
        errs.push(required(dataPath.key('username')), required(dataPath.key('password')));
      }
      break;
    case SECRET_TYPES.sshAuth:
      if ((data['ssh-privatekey'] ?? '') === '') errs.push(required(dataPath.key('ssh-privatekey')));
      break;
    case SECRET_TYPES.tls:
      if (!has('tls.crt')) errs.push(required(dataPath.key('tls.crt')));
      if (!has('tls.key')) errs.push(required(dataPath.key('tls.key')));
      break;
    default:
      break;
  }
  return errs;
}

export function validateSecretUpdate(s: DeepReadonly<Secret>, old: DeepReadonly<Secret>): FieldError[] {
  const errs = validateImmutableField(s.type ?? '', old.type ?? '', fieldPath('type'));
  if (old.immutable === true) {
    if (s.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
    if (!deepEqual(s.data ?? {}, old.data ?? {})) errs.push(forbidden('data', IMMUTABLE_WHEN_SET));
  }
  // ValidateSecretUpdate repeats the metadata checks of update and create
  return [...errs, ...validateSecret(s).filter((e) => !e.field.startsWith('metadata.') || e.field.startsWith('metadata.annotations[')),
    ...repeatedMetadataErrors(s.metadata, old.metadata, { update: true, create: { namespaced: true, nameFn: nameIsDNSSubdomain } })];
}
