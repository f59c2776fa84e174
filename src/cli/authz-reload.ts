// --authorization-config is reloaded while the server runs, as kube does: the file is watched (and
// polled every minute); changed bytes are decoded and validated, and must keep every non-webhook
// authorizer type of the start-up file (RBAC and Node cannot come or go: their state is built at
// start); a configuration that differs from the one in use has its webhooks built and replaces the
// chain. A failure keeps the chain in use and is logged and counted in
// apiserver_authorization_config_controller_*.
// Counterpart of pkg/kubeapiserver/authorizer/reload.go (runReload, checkFile).
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { configReloadMetrics } from '../apimachinery/metrics/config-reload.ts';
import { oneAtATime, watchFileUntil, type FileWatch } from '../apimachinery/util/watch-file.ts';
import { loadAndValidateAuthorizationData, type AuthorizationConfiguration } from '../authz/authorization-config.ts';
import type { Authorizer, RuleResolver } from '../authz/authorizer.ts';
import { resolveAuthorizers } from '../authz/config.ts';
import type { AuthorizationMode } from '../authz/modes.ts';

const FILE_POLL_MS = 60_000;

export interface AuthorizationConfigWatchOptions {
  readonly path: string;
  /** The configuration the server started with. */
  readonly initial: AuthorizationConfiguration;
  /** The server's identity (its identity lease's name), hashed into the metrics. */
  readonly apiServerID: string;
  readonly log: (line: string) => void;
  /** Puts a new chain in use; throws kube's error for a type not enabled at start-up. */
  replace(modes: readonly AuthorizationMode[], webhooks: readonly (Authorizer & RuleResolver)[]): void;
}

/** The authorizers' declarations without the compiled match conditions (what "unchanged" compares). */
const declared = (c: AuthorizationConfiguration): AuthorizationConfiguration => ({ authorizers: c.authorizers });

export function watchAuthorizationConfig(o: AuthorizationConfigWatchOptions): FileWatch {
  const metrics = configReloadMetrics('authorization_config_controller');
  const requireNonWebhookTypes = new Set(o.initial.authorizers.map((a) => a.type).filter((t) => t !== 'Webhook'));
  let lastRead = '';
  try { lastRead = readFileSync(o.path, 'utf8'); } catch { /* the first poll reports it */ }
  let lastLoaded = declared(o.initial);
  metrics.recordLastConfig(o.apiServerID, lastRead);
  const failed = (err: unknown): void => {
    o.log(`reloading authorization config: ${err instanceof Error ? err.message : String(err)}`);
    metrics.recordFailure(o.apiServerID);
  };

  const checkFile = async (): Promise<void> => {
    let data: string;
    try {
      data = readFileSync(o.path, 'utf8');
    } catch (err) {
      failed(err);
      return;
    }
    if (data === lastRead) return;
    lastRead = data;
    let config;
    try {
      config = loadAndValidateAuthorizationData(data, requireNonWebhookTypes);
    } catch (err) {
      failed(err);
      return;
    }
    if (isDeepStrictEqual(declared(config), lastLoaded)) return;
    lastLoaded = declared(config);
    try {
      const resolved = await resolveAuthorizers(config, { matchConditions: config.matchConditions });
      o.replace(resolved.modes, resolved.webhooks);
    } catch (err) {
      failed(err);
      return;
    }
    o.log('reloaded authz config');
    metrics.recordSuccess(o.apiServerID, data);
  };

  const check = oneAtATime(checkFile, failed);
  return watchFileUntil(o.path, FILE_POLL_MS, check, (err) => { o.log(`watching authorization config file: ${err.message}`); });
}
