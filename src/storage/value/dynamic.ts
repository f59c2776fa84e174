// --encryption-provider-config-automatic-reload: the file is re-read when its content changes and
// the new transformers replace the old ones for every later read and write; a file that does not
// load keeps the old ones (kube logs it and counts a failed reload). Every resource then goes
// through the transformer, since a reloaded file may cover resources the first did not (uncovered
// resources get kube's default, identity, which refuses encrypted data).
// Counterpart of k8s.io/apiserver/pkg/server/options/encryptionconfig/controller and
// DynamicTransformers in .../encryptionconfig/config.go.
import { createHash } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { configReloadMetrics } from '../../apimachinery/metrics/config-reload.ts';
import type { EncryptionTransformers, GroupResource, KmsProvider } from './config.ts';
import { loadEncryptionConfig } from './load.ts';
import { identityTransformer, type Transformer } from './transformer.ts';

const digest = (path: string): string => {
  try { return createHash('sha256').update(readFileSync(path)).digest('hex'); } catch { return ''; }
};

/** apiserver_encryption_config_controller_*: reloads by status and the file in use, by hash. */
const metrics = (): ReturnType<typeof configReloadMetrics> => configReloadMetrics('encryption_config_controller');

/** Names the start-up file (read as `data`) in last_config_info, as kube does with or without reload. */
export function recordEncryptionConfigInUse(apiServerID: string, path: string): void {
  let data = '';
  try { data = readFileSync(path, 'utf8'); } catch { /* loading it already failed the start */ }
  metrics().recordLastConfig(apiServerID, data);
}

export class ReloadingTransformers implements EncryptionTransformers {
  private current: EncryptionTransformers;
  private hash: string;
  private readonly listener = (): void => { this.reload(); };

  constructor(private readonly path: string, initial: EncryptionTransformers, private readonly apiServerID: string,
    private readonly log: (msg: string) => void = console.error, intervalMs = 1000) {
    this.current = initial;
    this.hash = digest(path);
    watchFile(path, { interval: intervalMs, persistent: false }, this.listener);
  }

  /** Re-reads the file if its content changed; true when new transformers are in use. */
  reload(): boolean {
    const h = digest(this.path);
    if (h === '' || h === this.hash) return false;
    try {
      const next = loadEncryptionConfig(this.path);
      const old = this.current;
      this.current = next;
      this.hash = h;
      // In-flight requests may still use the old plugins' connections: close them a little later.
      setTimeout(() => old.close(), 5000).unref();
      let data = '';
      try { data = readFileSync(this.path, 'utf8'); } catch { /* replaced meanwhile: the next change reloads again */ }
      metrics().recordSuccess(this.apiServerID, data);
      return true;
    } catch (err) {
      this.hash = h;
      this.log(`failed to reload encryption config ${this.path}: ${err instanceof Error ? err.message : String(err)}`);
      metrics().recordFailure(this.apiServerID);
      return false;
    }
  }

  forResource(gr: GroupResource): Transformer {
    return {
      fromStorage: (data, key) => (this.current.forResource(gr) ?? identityTransformer).fromStorage(data, key),
      toStorage: (data, key) => (this.current.forResource(gr) ?? identityTransformer).toStorage(data, key),
    };
  }

  get kmsProviders(): readonly KmsProvider[] { return this.current.kmsProviders; }

  /** With reload, kube cannot name KMS checks per provider: one check, kms-providers. */
  readonly reloading = true;

  close(): void {
    unwatchFile(this.path, this.listener);
    this.current.close();
  }
}
