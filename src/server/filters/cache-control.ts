// Every answer is private to an authenticated caller: kube-apiserver's WithCacheControl marks each
// response "no-cache, private" unless a handler chooses otherwise (OpenAPI's immutable documents).
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/cachecontrol.go.
import type { Filter } from './types.ts';

export const withCacheControl = (): Filter => (next) => async (req, res, state) => {
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache, private');
  await next(req, res, state);
};
