// The authentication and authorization metrics of kube's handler chain: attempts by result,
// their durations (buckets 1 ms doubling 15 times), and authenticated requests by user, the user
// name compressed to a handful of values so that the label set stays small.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/metrics.go.
import { exponentialBuckets, newCounter, newHistogram } from '../../apimachinery/metrics/registry.ts';
import type { Decision } from '../../authz/authorizer.ts';

const BUCKETS = exponentialBuckets(0.001, 2, 15);

const authenticatedUsers = newCounter<'username'>({ name: 'authenticated_user_requests', stability: 'ALPHA', labelNames: ['username'],
  help: 'Counter of authenticated requests broken out by username.' });
const authenticationAttempts = newCounter<'result'>({ name: 'authentication_attempts', stability: 'ALPHA', labelNames: ['result'],
  help: 'Counter of authenticated attempts.' });
const authenticationLatency = newHistogram<'result'>({ name: 'authentication_duration_seconds', stability: 'ALPHA', labelNames: ['result'],
  buckets: BUCKETS, help: 'Authentication duration in seconds broken out by result.' });
const authorizationAttempts = newCounter<'result'>({ name: 'authorization_attempts_total', stability: 'ALPHA', labelNames: ['result'],
  help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'." });
const authorizationLatency = newHistogram<'result'>({ name: 'authorization_duration_seconds', stability: 'ALPHA', labelNames: ['result'],
  buckets: BUCKETS, help: 'Authorization duration in seconds broken out by result.' });

/** A few well-known names are kept; an e-mail becomes email_id, anything else other. */
export function compressUsername(name: string): string {
  if (['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'].includes(name)) return name;
  return name.includes('@') ? 'email_id' : 'other';
}

/** `user`: who was authenticated (anonymous included), undefined when the request was not. */
export function recordAuthentication(user: string | undefined, seconds: number): void {
  const result = user === undefined ? 'failure' : 'success';
  if (user !== undefined) authenticatedUsers.inc({ username: compressUsername(user) });
  authenticationAttempts.inc({ result });
  authenticationLatency.observe({ result }, seconds);
}

export function recordAuthorization(decision: Decision, failed: boolean, seconds: number): void {
  const result = decision === 'Allow' ? 'allowed' : failed ? 'error' : decision === 'Deny' ? 'denied' : 'no-opinion';
  authorizationAttempts.inc({ result });
  authorizationLatency.observe({ result }, seconds);
}
