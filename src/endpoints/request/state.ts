// Per-request state filled in by the filters (request info, user, warnings) and read by handlers.
import type { RequestContext, RequestInfo, UserInfo, WarningRecorder } from '../../apimachinery/request/context.ts';

export class RequestState implements WarningRecorder {
  info: RequestInfo | undefined;
  user: UserInfo | undefined;
  readonly url: URL;
  readonly abort = new AbortController();
  readonly warnings: string[] = [];
  readonly startedAt = Date.now();
  /** Set by the timeout filter: when a non-long-running request times out (epoch ms). */
  deadline: number | undefined;

  /** The request's Accept header: errors are negotiated like objects (ErrorNegotiated). */
  readonly accept: string | undefined;

  constructor(rawUrl: string, accept?: string) {
    this.url = new URL(rawUrl, 'https://kapi.invalid');
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
