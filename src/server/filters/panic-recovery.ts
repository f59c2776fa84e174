// Any error that escapes a handler becomes a Status response instead of a dropped connection.
// Counterpart of k8s.io/apiserver/pkg/server/filters/wrap.go (WithPanicRecovery).
import { writeError } from '../../endpoints/handlers/response.ts';
import type { Filter } from './types.ts';

export const withPanicRecovery = (): Filter => (next) => async (req, res, state) => {
  try {
    await next(req, res, state);
  } catch (err) {
    if (res.headersSent) { res.destroy(); return; }
    writeError(res, err, undefined, state);
  }
};
