// Secrets (pkg/registry/core/secret). Data values are base64 strings on the wire and in storage.
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { Secret } from '../v1/types.ts';
import { SECRET_TYPES, validateSecret, validateSecretUpdate } from './validation.ts';
import { setKey } from '../../../apimachinery/patch/index.ts';
import { x509KeyPairError } from './tls-warnings.ts';

/** warningsForSecret: a TLS Secret whose certificate and key do not make a pair. */
function warningsForSecret(s: DeepReadonly<Secret>): string[] {
  if (s.type !== SECRET_TYPES.tls) return [];
  const decode = (k: string): string => Buffer.from(s.data?.[k] ?? '', 'base64').toString('latin1');
  const err = x509KeyPairError(decode('tls.crt'), decode('tls.key'));
  return err === undefined ? [] : [err];
}

/** SetDefaults_Secret and the v1 conversion: type Opaque; stringData folded into data (base64). */
export function defaultSecret(s: Secret): void {
  if (s.type === undefined || s.type === '') s.type = SECRET_TYPES.opaque;
  if (s.stringData !== undefined) {
    const data = { ...s.data };
    for (const [k, v] of Object.entries(s.stringData)) setKey(data, k, Buffer.from(v, 'utf8').toString('base64'));
    s.data = data;
    delete s.stringData;
  }
}

export const secrets = {
  group: '', kind: 'Secret', resource: 'secrets', singular: 'secret', namespaced: true,
  strategy: specStatusStrategy<Secret>({
    validate: (s) => validateSecret(s),
    revalidateOnUpdate: false,
    validateUpdate: (s, old) => validateSecretUpdate(s, old),
    warningsOnCreate: (s) => warningsForSecret(s),
    warningsOnUpdate: (s) => warningsForSecret(s),
  }),
  defaults: defaultSecret,
  selectableFields: (s) => ({
    'metadata.name': s.metadata.name ?? '', 'metadata.namespace': s.metadata.namespace ?? '', type: s.type ?? '',
  }),
  table: [
    nameColumn<Secret>(),
    { name: 'Type', type: 'string', cell: (s) => s.type ?? '' },
    { name: 'Data', type: 'string', cell: (s) => Object.keys(s.data ?? {}).length },
    ageColumn<Secret>(),
  ],
} satisfies ResourceDefinition<Secret>;
