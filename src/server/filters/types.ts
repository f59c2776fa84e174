// The handler chain: an ordered array of filters, outermost first, composed once.
// Counterpart of k8s.io/apiserver/pkg/server/config.go (DefaultBuildHandlerChain).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from '../../endpoints/request/state.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, state: RequestState) => Promise<void>;
export type Filter = (next: Handler) => Handler;

export const compose = (filters: readonly Filter[], api: Handler): Handler =>
  filters.reduceRight<Handler>((h, f) => f(h), api);
