// --authentication-config is reloaded while the server runs, as kube does: the file is watched
// (and polled every minute); a changed file is decoded and validated (its anonymous section may not
// change), its JWT authenticators are built and must become healthy (discovery and keys fetched)
// within a minute, and only then replace the old ones, which keep running a minute longer for
// requests in flight. A file that does not decode or validate is not retried until it changes
// again; one whose providers stay unhealthy is retried at the next poll. Each outcome is logged and
// counted in apiserver_authentication_config_controller_*.
// Counterpart of the reload in pkg/kubeapiserver/options/authentication.go (ApplyTo) and of
// authenticationConfigUpdater in pkg/kubeapiserver/authenticator/config.go.
import { isDeepStrictEqual } from 'node:util';
import { readFileSync } from 'node:fs';
import { aggregateMessages, formatFieldError, forbidden, type FieldError } from '../apimachinery/errors/field-errors.ts';
import { configReloadMetrics } from '../apimachinery/metrics/config-reload.ts';
import { oneAtATime, watchFileUntil, type FileWatch } from '../apimachinery/util/watch-file.ts';
import type { ClosableTokenAuthenticator } from '../authn/jwt/authenticator.ts';
import { parseAuthenticationConfiguration, type AuthenticationConfiguration } from '../authn/jwt/config.ts';
import { validateAuthenticationConfiguration } from '../authn/jwt/validation.ts';

/** kube's intervals: the file poll, the health poll, the wait for health, and the old authenticators' grace. */
const FILE_POLL_MS = 60_000;
const HEALTH_POLL_MS = 10_000;
const HEALTH_TIMEOUT_MS = 60_000;
const OLD_AUTHENTICATORS_GRACE_MS = 60_000;

export interface AuthenticationConfigWatchOptions {
  readonly path: string;
  /** The configuration the server started with. */
  readonly initial: AuthenticationConfiguration;
  /** The server's identity (its identity lease's name), hashed into the metrics. */
  readonly apiServerID: string;
  readonly serviceAccountIssuers: readonly string[];
  readonly log: (line: string) => void;
  /** The JWT authenticators of a validated configuration; throws with kube's message. */
  build(config: AuthenticationConfiguration): ClosableTokenAuthenticator[];
  /** Puts `next` in use and returns the authenticators it replaced. */
  swap(next: ClosableTokenAuthenticator[]): ClosableTokenAuthenticator[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => { setTimeout(resolve, ms).unref(); });

/** Resolves with the first health error left after kube's wait, or undefined once all are healthy. */
async function waitHealthy(authenticators: readonly ClosableTokenAuthenticator[]): Promise<Error | undefined> {
  await Promise.all(authenticators.map((a) => a.firstAttempt));
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    const err = authenticators.map((a) => a.healthCheck()).find((e) => e !== undefined);
    if (err === undefined || Date.now() + HEALTH_POLL_MS > deadline) return err;
    await sleep(HEALTH_POLL_MS);
  }
}

export function watchAuthenticationConfig(o: AuthenticationConfigWatchOptions): FileWatch {
  const metrics = configReloadMetrics('authentication_config_controller');
  const readData = (): string => readFileSync(o.path, 'utf8');
  let tracked = '';
  try { tracked = readData(); } catch { /* the first poll reports it */ }
  metrics.recordLastConfig(o.apiServerID, tracked);
  const failed = (what: string, err: unknown): void => {
    o.log(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    metrics.recordFailure(o.apiServerID);
  };

  const reloadOnce = async (): Promise<void> => {
    let data: string;
    try {
      data = readData();
    } catch (err) {
      // Not tracked: a missing file may come back.
      failed('failed to read authentication config file', err);
      return;
    }
    if (data === tracked) return;
    let config: AuthenticationConfiguration;
    try {
      config = parseAuthenticationConfiguration(data);
    } catch (err) {
      tracked = data;
      failed('failed to load authentication config', err);
      return;
    }
    const errs: FieldError[] = [...validateAuthenticationConfiguration(config, o.serviceAccountIssuers)];
    if (!isDeepStrictEqual(config.anonymous, o.initial.anonymous)) errs.push(forbidden('anonymous', 'changed from initial configuration file'));
    let next: ClosableTokenAuthenticator[] = [];
    if (errs.length === 0) {
      try {
        next = o.build(config);
      } catch (err) {
        tracked = data;
        failed('failed to validate authentication config', err);
        return;
      }
    }
    if (errs.length > 0) {
      tracked = data;
      failed('failed to validate authentication config', new Error(aggregateMessages(errs.map(formatFieldError))));
      return;
    }
    const unhealthy = await waitHealthy(next);
    if (unhealthy !== undefined) {
      // Not tracked: the providers may come up by the next poll.
      for (const a of next) a.close();
      failed('failed to update authentication config', unhealthy);
      return;
    }
    const old = o.swap(next);
    // kube lets the old authenticators serve requests in flight for a minute.
    setTimeout(() => { for (const a of old) a.close(); }, OLD_AUTHENTICATORS_GRACE_MS).unref();
    tracked = data;
    o.log('reloaded authentication config');
    metrics.recordSuccess(o.apiServerID, data);
  };

  const check = oneAtATime(reloadOnce, (err) => { failed('failed to update authentication config', err); });
  return watchFileUntil(o.path, FILE_POLL_MS, check, (err) => { o.log(`watching authentication config file: ${err.message}`); });
}
