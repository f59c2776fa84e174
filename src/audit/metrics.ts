// The audit metrics of kube-apiserver.
// Counterpart of k8s.io/apiserver/pkg/audit/metrics.go.
import { newCounter } from '../apimachinery/metrics/registry.ts';
import type { Level } from './types.ts';

const eventCounter = newCounter({
  name: 'apiserver_audit_event_total', stability: 'ALPHA', help: 'Counter of audit events generated and sent to the audit backend.',
});
const errorCounter = newCounter({
  name: 'apiserver_audit_error_total', stability: 'ALPHA',
  help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
  labelNames: ['plugin'],
});
const levelCounter = newCounter({
  name: 'apiserver_audit_level_total', stability: 'ALPHA', help: 'Counter of policy levels for audit events (1 per request).',
  labelNames: ['level'],
});
const rejectedCounter = newCounter({
  name: 'apiserver_audit_requests_rejected_total', stability: 'ALPHA',
  help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
});

export const observeEvent = (): void => { eventCounter.inc(); };
export const observePolicyLevel = (level: Level): void => { levelCounter.inc({ level }); };
export const observeRequestRejected = (): void => { rejectedCounter.inc(); };
/** Events a backend (plugin "log" or "webhook") failed to write or dropped. */
export const observeAuditErrors = (plugin: string, n: number): void => { errorCounter.inc({ plugin }, n); };
