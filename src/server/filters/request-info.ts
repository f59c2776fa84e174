// Parses the path into a RequestInfo once; every later filter and handler reads it.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/requestinfo.go.
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import type { Filter } from './types.ts';

export const withRequestInfo = (): Filter => (next) => async (req, res, state) => {
  state.info = parseRequestInfo(req.method ?? 'GET', state.path, state.url.searchParams);
  await next(req, res, state);
};
