// The KMS health checks of /healthz, /livez and /readyz: one check per KMS v2 provider, named
// kms-provider-0 when there is one and kms-providers (all of them) otherwise or with automatic
// reload, as kube-apiserver names them. A check asks the plugin's Status and wants healthz "ok", version v2 and a key ID.
// Counterpart of k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go (kmsv2PluginProbe).
import type { HealthCheck } from '../server/healthz.ts';
import type { EncryptionTransformers, KmsProvider } from '../storage/value/config.ts';

async function probe(p: KmsProvider): Promise<void> {
  const errs: string[] = [];
  let res;
  try {
    res = await p.envelope.client.status();
  } catch (err) {
    throw new Error(`failed to perform status section of the healthz check for KMS Provider ${p.name}, error: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.healthz !== 'ok') errs.push(`got unexpected healthz status: ${res.healthz}`);
  if (res.version !== 'v2' && res.version !== 'v2beta1') errs.push(`expected KMSv2 API version v2, got ${res.version}`);
  if (res.key_id === '') errs.push('got invalid KMSv2 KeyID hash "": keyID is empty');
  if (errs.length > 0) {
    throw new Error(`kmsv2 Provider ${p.name} is not healthy, error: ${errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`}`);
  }
}

export function kmsHealthChecks(enc: EncryptionTransformers | undefined): HealthCheck[] {
  const providers = enc?.kmsProviders ?? [];
  if (providers.length === 0) return [];
  if (providers.length === 1 && enc?.reloading !== true) {
    const only = providers[0];
    return only === undefined ? [] : [{ name: 'kms-provider-0', check: () => probe(only) }];
  }
  return [{ name: 'kms-providers', check: async () => { for (const p of providers) await probe(p); } }];
}
