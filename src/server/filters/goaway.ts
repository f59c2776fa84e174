// --goaway-chance: a random fraction of HTTP/2 requests mark their answer `Connection: close`,
// which the HTTP/2 server turns into a graceful GOAWAY once the headers go (secure-serving.ts):
// the streams under way, this one and any watch included, finish on the old connection, and the
// client's next requests open a new one, likely to another server behind the load balancer.
// HTTP/1.1 requests are left alone. Without a chance, or with HTTP/2 disabled, the filter is not in
// the chain.
// Counterpart of k8s.io/apiserver/pkg/server/filters/goaway.go.
import type { Filter } from './types.ts';

/** `next` draws a number in [0, 1) (injectable for tests). */
export function withProbabilisticGoaway(chance: number, next: () => number = Math.random): Filter | undefined {
  if (!(chance > 0)) return undefined;
  return (inner) => (req, res, state) => {
    if (req.httpVersionMajor === 2 && next() < chance) res.setHeader('Connection', 'close');
    return inner(req, res, state);
  };
}
