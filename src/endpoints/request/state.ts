// Per-request state filled in by the filters (request info, user, warnings) and read by handlers.
// Counterpart of k8s.io/apiserver/pkg/endpoints/request (the values filters put in the request
// context).
import { decodeRequestPath } from './request-path.ts';
import type { AuditContext } from '../../audit/context.ts';
import type { AuditAnnotationRecorder, RequestContext, RequestInfo, UserInfo, WarningRecorder } from '../../apimachinery/request/context.ts';

/** What strconv.ParseBool reads as true. */
const GO_TRUE: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/**
 * url.Values.Get of Go's query parsing: the first value of `key`; pairs holding a ';' or a bad
 * escape are dropped, as Go drops them.
 */
function goQueryGet(rawQuery: string, key: string): string {
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const k = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
      if (k !== key) continue;
      return eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replaceAll('+', ' '));
    } catch {
      continue;
    }
  }
  return '';
}

export class RequestState implements WarningRecorder, AuditAnnotationRecorder {
  info: RequestInfo | undefined;
  user: UserInfo | undefined;
  /** The query (searchParams) of the request; its pathname is WHATWG-normalized, use `path`. */
  readonly url: URL;
  /** The decoded path as Go's URL.Path (request-path.ts); '' when an escape is malformed. */
  readonly path: string;
  readonly abort = new AbortController();
  readonly warnings: string[] = [];
  /** The audit annotations admission added, kept for the audit event (kapi has no audit backend yet). */
  readonly auditAnnotations = new Map<string, string>();
  readonly startedAt = Date.now();
  /** Set by the timeout filter: when a non-long-running request times out (epoch ms). */
  deadline: number | undefined;
  /**
   * Set by priority and fairness for a watch: the watch handler calls it once the watch is
   * established, which frees the seats its initialization took (kube's initialization signal).
   */
  watchInitialized: (() => void) | undefined;
  /** The request's audit event, when the audit policy records it (level Metadata and up). */
  audit: AuditContext | undefined;
  /** Whether a route (or an instrumented handler) took the request: only those are in the request metrics. */
  routed = false;
  /** Called once when a route takes the request (the metrics filter counts long-running requests from then). */
  onRouted: (() => void) | undefined;

  /** The request's Accept header: errors are negotiated like objects (ErrorNegotiated). */
  readonly accept: string | undefined;
  /** The raw query (Go's URL.RawQuery). */
  private readonly rawQuery: string;
  private readonly userAgent: string;

  constructor(rawUrl: string, accept?: string, userAgent?: string) {
    // Only the query is taken from the target: a WHATWG parse of the whole target would resolve
    // dot segments, read "//host/..." as a host, and throw on some targets Go accepts.
    this.url = new URL('https://kapi.invalid/');
    const q = rawUrl.indexOf('?');
    if (q !== -1) this.url.search = rawUrl.slice(q);
    this.rawQuery = q === -1 ? '' : rawUrl.slice(q + 1);
    this.path = decodeRequestPath(rawUrl) ?? '';
    this.accept = accept;
    this.userAgent = userAgent ?? '';
  }

  /**
   * negotiation.isPrettyPrint: a non-empty `pretty` query parameter decides (strconv.ParseBool,
   * anything it refuses is false); without one, curl, Wget and browsers get indented JSON.
   */
  isPrettyPrint(): boolean {
    if (this.rawQuery.includes('pretty')) {
      const pp = goQueryGet(this.rawQuery, 'pretty');
      if (pp !== '') return GO_TRUE.has(pp);
    }
    const ua = this.userAgent;
    return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
  }

  /** A route of the installer (or an instrumented handler) serves the request. */
  markRouted(): void {
    if (this.routed) return;
    this.routed = true;
    this.onRouted?.();
  }

  addWarning(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  addAuditAnnotation(key: string, value: string): void {
    if (!this.auditAnnotations.has(key)) this.auditAnnotations.set(key, value);
  }

  /** The RequestContext passed down to the registry. */
  context(): RequestContext {
    const info = this.info;
    if (info === undefined) throw new Error('request info not set: the request-info filter must run first');
    const ctx: RequestContext = { signal: this.abort.signal, info, user: this.user, warnings: this, audit: this, namespace: info.namespace };
    return this.deadline === undefined ? ctx : { ...ctx, deadline: this.deadline };
  }
}
