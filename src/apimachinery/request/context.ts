// The per-request context passed explicitly down the layers (no globals, no async-local state).
// Counterpart of k8s.io/apiserver/pkg/endpoints/request/context.go.

/** What the path of a request says (k8s.io/apiserver/pkg/endpoints/request.RequestInfo). */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The path, for non-resource requests. */
  readonly path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection, or the lowercased HTTP method for non-resource requests. */
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly parts: readonly string[];
}

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface WarningRecorder {
  /** Adds a `Warning: 299 - "text"` header to the response (deduplicated). */
  addWarning(text: string): void;
}

export interface AuditAnnotationRecorder {
  /**
   * Adds an annotation to the request's audit event (audit.AddAuditAnnotation); a key already
   * set keeps its first value.
   */
  addAuditAnnotation(key: string, value: string): void;
}

export interface RequestContext {
  /** Fires when the request is over for the server: its deadline passed (--request-timeout) or the server stops. */
  readonly signal: AbortSignal;
  /**
   * Epoch milliseconds after which the request has timed out (set for non-long-running requests).
   * The signal only fires once the event loop gets to the timer; checkDeadline reads the clock.
   */
  readonly deadline?: number;
  readonly info: RequestInfo;
  readonly user: UserInfo | undefined;
  readonly warnings: WarningRecorder;
  /** Where admission records audit annotations; absent for work the server does on its own behalf. */
  readonly audit?: AuditAnnotationRecorder;
  /** The namespace of the request ('' for cluster-scoped requests). */
  readonly namespace: string;
}

/** A context for work the server does on its own behalf (bootstrap, controllers, tests). */
export function systemContext(namespace = '', signal: AbortSignal = new AbortController().signal): RequestContext {
  return {
    signal,
    namespace,
    user: { name: 'system:apiserver', groups: ['system:masters'] },
    warnings: { addWarning() {} },
    info: {
      isResourceRequest: true, path: '', verb: '', apiPrefix: '', apiGroup: '', apiVersion: '',
      namespace, resource: '', subresource: '', name: '', parts: [],
    },
  };
}
