// Every response carries an Audit-Id, as kube-apiserver's outermost filter (WithAuditInit)
// ensures: the client's own Audit-ID when it sent one, else a fresh UUID. Clients log it to tie a
// failed call to the server's records.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/audit_init.go.
import { randomUUID } from 'node:crypto';
import { validateHeaderValue } from 'node:http';
import type { Filter } from './types.ts';

function usable(v: string | undefined): v is string {
  if (v === undefined || v === '') return false;
  try {
    validateHeaderValue('Audit-Id', v);
    return true;
  } catch {
    return false;
  }
}

export const withAuditInit = (newID: () => string = randomUUID): Filter => (next) => async (req, res, state) => {
  // The first of repeated headers, as Go's Header.Get; kept whole (kube does not truncate it).
  const sent = req.headersDistinct['audit-id']?.[0];
  if (!res.hasHeader('Audit-Id')) res.setHeader('Audit-Id', usable(sent) ? sent : newID());
  await next(req, res, state);
};
