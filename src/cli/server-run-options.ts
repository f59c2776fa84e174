// The flags of the generic server's run options that kapi serve adds to the table: priority and
// fairness, graceful shutdown, CORS, HSTS, HTTP/2 and profiling, and the endpoint reconciler, checked as kube checks them
// at start-up (same messages).
// Counterpart of k8s.io/apiserver/pkg/server/options/server_run_options.go (Validate) and the
// --enable-priority-and-fairness / --endpoint-reconciler-type checks of cmd/kube-apiserver.
import { validateCORSAllowedOrigins } from '../server/filters/cors.ts';
import { validateHSTSDirectives } from '../server/filters/hsts.ts';

export type EndpointReconcilerType = 'lease' | 'none';

export interface ServerRunOptions {
  /** --shutdown-watch-termination-grace-period: how long shutdown waits for watches to end (0: not at all). */
  readonly shutdownWatchTerminationGracePeriodMs: number;
  /** --shutdown-send-retry-after: while draining, new requests get 429 with Retry-After and Connection: close. */
  readonly shutdownSendRetryAfter: boolean;
  /** --enable-priority-and-fairness (default true): APF replaces the max-in-flight limit. */
  readonly enablePriorityAndFairness: boolean;
  /** --endpoint-reconciler-type: lease (default) or none. */
  readonly endpointReconcilerType: EndpointReconcilerType;
  /** --cors-allowed-origins: regular expressions an Origin must match. */
  readonly corsAllowedOrigins: readonly string[];
  /** --strict-transport-security-directives. */
  readonly hstsDirectives: readonly string[];
  /** --goaway-chance: the fraction of HTTP/2 requests whose connection gets GOAWAY (0 to 0.02). */
  readonly goawayChance: number;
  /** --disable-http2-serving. */
  readonly disableHTTP2Serving: boolean;
  /** --http2-max-streams-per-connection (0 or less: kube's default). */
  readonly http2MaxStreamsPerConnection: number;
  /** --profiling (default true): /debug/pprof/* and /debug/flags/v. */
  readonly profiling: boolean;
  /** --debug-socket-path: the same debug endpoints, unauthenticated, on a unix socket ('' for none). */
  readonly debugSocketPath: string;
}

/** Reads the flags through `get` (parsed values by name), adding kube's messages to `errs`. */
export function serverRunOptions(get: (name: string) => unknown, errs: string[]): ServerRunOptions {
  const num = (n: string): number => get(n) as number;
  if (num('shutdown-watch-termination-grace-period') < 0) {
    errs.push('shutdown-watch-termination-grace-period, if provided, can not be a negative value');
  }
  const apf = get('enable-priority-and-fairness') as boolean;
  const readOnly = num('max-requests-inflight');
  const mutating = num('max-mutating-requests-inflight');
  if (apf && readOnly + mutating <= 0) {
    errs.push(`invalid configuration: MaxRequestsInFlight=${readOnly} and MaxMutatingRequestsInFlight=${mutating}; they must add up to something positive`);
  }
  const hsts = get('strict-transport-security-directives') as string[];
  const cors = get('cors-allowed-origins') as string[];
  errs.push(...validateHSTSDirectives(hsts), ...validateCORSAllowedOrigins(cors));
  const goawayChance = num('goaway-chance');
  if (goawayChance < 0 || goawayChance > 0.02) errs.push('--goaway-chance can not be less than 0 or greater than 0.02');
  // Go's block profile has no Node counterpart: refused rather than accepted without effect.
  if (get('contention-profiling') === true) errs.push('--contention-profiling is not implemented by kapi (Node has no block profiler)');
  const reconciler = get('endpoint-reconciler-type') as string;
  // kube fails on an unknown type when it builds the reconciler; its deprecated master-count
  // (with --apiserver-count) kapi does not have.
  if (reconciler === 'master-count') errs.push('--endpoint-reconciler-type master-count is not implemented by kapi (use lease or none)');
  else if (reconciler !== 'lease' && reconciler !== 'none') errs.push(`Reconciler not implemented: ${reconciler}`);
  return {
    shutdownWatchTerminationGracePeriodMs: num('shutdown-watch-termination-grace-period'),
    shutdownSendRetryAfter: get('shutdown-send-retry-after') as boolean,
    enablePriorityAndFairness: apf,
    endpointReconcilerType: reconciler === 'none' ? 'none' : 'lease',
    corsAllowedOrigins: cors,
    hstsDirectives: hsts,
    goawayChance,
    disableHTTP2Serving: get('disable-http2-serving') as boolean,
    http2MaxStreamsPerConnection: num('http2-max-streams-per-connection'),
    profiling: get('profiling') as boolean,
    debugSocketPath: get('debug-socket-path') as string,
  };
}
