// The KMS health check of /healthz and /readyz (not /livez): with KMS v2 providers only, kube-apiserver
// registers one check, kms-providers, which probes each provider in order and reports each
// failure as `kms-provider-<index>: <error>`. A probe asks the plugin's Status and wants healthz
// "ok", version v2 and a key ID.
// Counterpart of k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go (kmsv2PluginProbe,
// kmsHealthChecker) and addHealthChecksWithoutLivez in k8s.io/apiserver/pkg/server/options/etcd.go.
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
  // As kube's probe: a new key ID at the plugin rotates the DEK for later writes.
  else await p.envelope.refreshKeyId().catch(() => '');
  if (errs.length > 0) {
    throw new Error(`kmsv2 Provider ${p.name} is not healthy, error: ${errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`}`);
  }
}

export function kmsHealthChecks(enc: EncryptionTransformers | undefined): HealthCheck[] {
  if (enc === undefined || (enc.kmsProviders.length === 0 && enc.reloading !== true)) return [];
  return [{
    name: 'kms-providers',
    // The providers of the current configuration (a reload may change them).
    check: async () => {
      const errs: string[] = [];
      for (const [i, p] of enc.kmsProviders.entries()) {
        try { await probe(p); } catch (err) { errs.push(`kms-provider-${i}: ${err instanceof Error ? err.message : String(err)}`); }
      }
      if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    },
  }];
}
