// --shutdown-send-retry-after: once the server no longer accepts new requests (the shutdown delay
// has passed) but keeps listening until in-flight requests drain, every new request but health
// checks, /metrics and other kube-apiservers' gets 429 with Retry-After: 5 and Connection: close,
// so that the client goes to another server.
// Counterpart of k8s.io/apiserver/pkg/server/filters/with_retry_after.go.
import type { Filter } from './types.ts';

const EXEMPT_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];
const MESSAGE = 'The apiserver is shutting down, please try again later.\n';

export const withRetryAfter = (notAcceptingNewRequests: () => boolean): Filter => (next) => async (req, res, state) => {
  if (!notAcceptingNewRequests() || (req.headers['user-agent'] ?? '').startsWith('kube-apiserver/')
    || EXEMPT_PREFIXES.some((p) => state.path.startsWith(p))) return next(req, res, state);
  res.setHeader('Connection', 'close');
  res.setHeader('Retry-After', '5');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', Buffer.byteLength(MESSAGE));
  res.statusCode = 429;
  res.end(MESSAGE);
};
