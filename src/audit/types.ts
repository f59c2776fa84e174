// audit.k8s.io/v1 wire shapes: Event, EventList, Policy. Field order of Event follows Go's struct,
// which is the order kube writes them in (event.ts builds objects in that order).
// Counterpart of k8s.io/apiserver/pkg/apis/audit/v1/types.go.

export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const LEVELS: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
export const STAGES: readonly Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** Whether `a` records less than `b` (Level.Less). */
export const levelLess = (a: Level, b: Level): boolean => LEVELS.indexOf(a) < LEVELS.indexOf(b);

export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export interface GroupResources {
  readonly group?: string;
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface PolicyRule {
  readonly level: Level;
  readonly users?: readonly string[];
  readonly userGroups?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resources?: readonly GroupResources[];
  readonly namespaces?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

/** What the policy decides for one request (auditinternal.RequestAuditConfig). */
export interface RequestAuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** Where events go (audit.Backend): the log file, a webhook, or both (union). */
export interface Sink {
  /**
   * Takes events of one stage. Rejects (blocking-strict mode) when the backend failed and the
   * request must fail with it; other modes never reject.
   */
  processEvents(events: readonly AuditEvent[]): Promise<void> | void;
  /** Flushes what is buffered and releases the backend. */
  shutdown(): Promise<void>;
}
