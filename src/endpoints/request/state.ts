// Per-request state filled in by the filters (request info, user, warnings) and read by handlers.
import { decodeRequestPath } from './request-path.ts';
import type { RequestContext, RequestInfo, UserInfo, WarningRecorder } from '../../apimachinery/request/context.ts';

export class RequestState implements WarningRecorder {
  info: RequestInfo | undefined;
  user: UserInfo | undefined;
  /** The query (searchParams) of the request; its pathname is WHATWG-normalized, use `path`. */
  readonly url: URL;
  /** The decoded path as Go's URL.Path (request-path.ts); '' when an escape is malformed. */
  readonly path: string;
  readonly abort = new AbortController();
  readonly warnings: string[] = [];
  readonly startedAt = Date.now();
  /** Set by the timeout filter: when a non-long-running request times out (epoch ms). */
  deadline: number | undefined;

  /** The request's Accept header: errors are negotiated like objects (ErrorNegotiated). */
  readonly accept: string | undefined;

  constructor(rawUrl: string, accept?: string) {
    // Only the query is taken from the target: a WHATWG parse of the whole target would resolve
    // dot segments, read "//host/..." as a host, and throw on some targets Go accepts.
    this.url = new URL('https://kapi.invalid/');
    const q = rawUrl.indexOf('?');
    if (q !== -1) this.url.search = rawUrl.slice(q);
    this.path = decodeRequestPath(rawUrl) ?? '';
    this.accept = accept;
  }

  addWarning(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  /** The RequestContext passed down to the registry. */
  context(): RequestContext {
    const info = this.info;
    if (info === undefined) throw new Error('request info not set: the request-info filter must run first');
    const ctx: RequestContext = { signal: this.abort.signal, info, user: this.user, warnings: this, namespace: info.namespace };
    return this.deadline === undefined ? ctx : { ...ctx, deadline: this.deadline };
  }
}
