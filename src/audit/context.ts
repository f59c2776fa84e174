// The audit event of one request while it is served: the policy's decision, the event as it fills
// (objectRef completed from the request object, request and response bodies at the levels that
// want them, annotations), and each stage sent to the backends as a copy stamped with the stage
// and its time.
// Counterpart of k8s.io/apiserver/pkg/audit (context.go, request.go).
import { observeEvent } from './metrics.ts';
import { levelLess, type AuditEvent, type Level, type ObjectReference, type RequestAuditConfig, type Sink, type Stage } from './types.ts';

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits, UTC. */
export function microTime(epochMs: number): string {
  const whole = Math.floor(epochMs / 1000);
  const micros = Math.floor((epochMs - whole * 1000) * 1000);
  return `${new Date(whole * 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** Wall-clock time with microseconds. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy as the event keeps it (JSON), without managedFields when the policy says so. */
function snapshot(obj: unknown, omitManagedFields: boolean): unknown {
  const copy = JSON.parse(JSON.stringify(obj)) as unknown;
  if (!omitManagedFields || !isObj(copy)) return copy;
  const strip = (o: unknown): void => { if (isObj(o) && isObj(o['metadata'])) delete o['metadata']['managedFields']; };
  strip(copy);
  if (Array.isArray(copy['items'])) copy['items'].forEach(strip);
  return copy;
}

export class AuditContext {
  readonly event: AuditEvent;
  private readonly omitStages: ReadonlySet<Stage>;
  private completed = false;

  constructor(readonly config: RequestAuditConfig, event: AuditEvent, private readonly sink: Sink) {
    this.event = event;
    this.omitStages = new Set(config.omitStages);
  }

  get level(): Level { return this.config.level; }
  /** Whether request bodies go in the event (level Request and up). */
  get wantsRequestObject(): boolean { return !levelLess(this.config.level, 'Request'); }
  /** Whether response bodies go in the event (level RequestResponse). */
  get wantsResponseObject(): boolean { return this.config.level === 'RequestResponse'; }

  addAnnotation(key: string, value: string): void {
    const a = this.event.annotations ??= {};
    if (!(key in a)) a[key] = value;
  }

  /** The decoded request object: completes objectRef (namespace, name, uid, resourceVersion) and keeps the body at level Request and up. */
  logRequestObject(obj: unknown): void {
    const ref = this.event.objectRef;
    if (ref !== undefined && isObj(obj) && isObj(obj['metadata'])) {
      const m = obj['metadata'];
      const str = (k: string): string => (typeof m[k] === 'string' ? m[k] : '');
      if ((ref.namespace ?? '') === '' && str('namespace') !== '') ref.namespace = str('namespace');
      if ((ref.name ?? '') === '' && str('name') !== '') ref.name = str('name');
      if ((ref.uid ?? '') === '' && str('uid') !== '') ref.uid = str('uid');
      if ((ref.resourceVersion ?? '') === '' && str('resourceVersion') !== '') ref.resourceVersion = str('resourceVersion');
    }
    if (this.wantsRequestObject && this.event.requestObject === undefined) this.event.requestObject = snapshot(obj, this.config.omitManagedFields);
  }

  /** A patch body, kept as sent (its JSON) at level Request and up. */
  logRequestPatch(patch: unknown): void {
    if (this.wantsRequestObject && this.event.requestObject === undefined) this.event.requestObject = snapshot(patch, false);
  }

  /** The object written in the response: a Status becomes responseStatus; the body is kept at RequestResponse. */
  logResponseObject(obj: unknown): void {
    if (isObj(obj) && obj['kind'] === 'Status') {
      // The bounded fields of the Status, in its field order; a success Status has no code of its own (the response's is set later).
      const text = (k: string): string | undefined => (typeof obj[k] === 'string' && obj[k] !== '' ? obj[k] : undefined);
      const [status, message, reason] = [text('status'), text('message'), text('reason')];
      this.event.responseStatus = {
        metadata: {}, ...(status !== undefined ? { status } : {}), ...(message !== undefined ? { message } : {}),
        ...(reason !== undefined ? { reason } : {}), ...(obj['details'] !== undefined ? { details: obj['details'] } : {}),
        code: typeof obj['code'] === 'number' ? obj['code'] : 0,
      };
    }
    if (this.wantsResponseObject && this.event.responseObject === undefined) this.event.responseObject = snapshot(obj, this.config.omitManagedFields);
  }

  /** The status code, when no Status was logged (metav1.Status{Code}). */
  setResponseCode(code: number): void {
    if (this.event.responseStatus === undefined) this.event.responseStatus = { metadata: {}, code };
    else if (this.event.responseStatus.code === 0) this.event.responseStatus = { ...this.event.responseStatus, code };
  }

  /** Sends the event at `stage` unless the policy omits it; resolves when the backends took it. */
  async processStage(stage: Stage): Promise<void> {
    if (stage === 'ResponseComplete' || stage === 'Panic') {
      if (this.completed) return;
      this.completed = true;
    }
    if (this.omitStages.has(stage)) return;
    // The first stage is stamped with the time the request came in, as kube's.
    const at = stage === 'RequestReceived' ? this.event.requestReceivedTimestamp : microTime(nowMs());
    const ordered = orderEvent({ ...this.event, stage, stageTimestamp: at });
    observeEvent();
    await this.sink.processEvents([ordered]);
  }

  get isCompleted(): boolean { return this.completed; }
}

/** ObjectReference in Go's field order (fields are filled as the request goes). */
function orderRef(r: ObjectReference): ObjectReference {
  const out: ObjectReference = {};
  for (const k of ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const) {
    const v = r[k];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/** The event with kube's field order (Go struct order), absent fields dropped; objectRef and annotations copied (they still fill). */
export function orderEvent(ev: AuditEvent): AuditEvent {
  return {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: ev.level, auditID: ev.auditID, stage: ev.stage,
    requestURI: ev.requestURI, verb: ev.verb, user: ev.user,
    ...(ev.impersonatedUser !== undefined ? { impersonatedUser: ev.impersonatedUser } : {}),
    ...(ev.sourceIPs !== undefined ? { sourceIPs: ev.sourceIPs } : {}),
    ...(ev.userAgent !== undefined ? { userAgent: ev.userAgent } : {}),
    ...(ev.objectRef !== undefined ? { objectRef: orderRef(ev.objectRef) } : {}),
    ...(ev.responseStatus !== undefined ? { responseStatus: { ...ev.responseStatus } } : {}),
    ...(ev.requestObject !== undefined ? { requestObject: ev.requestObject } : {}),
    ...(ev.responseObject !== undefined ? { responseObject: ev.responseObject } : {}),
    requestReceivedTimestamp: ev.requestReceivedTimestamp, stageTimestamp: ev.stageTimestamp,
    ...(ev.annotations !== undefined ? { annotations: { ...ev.annotations } } : {}),
  };
}
