// A request whose credentials were refused (401 from authentication) is audited too: the policy
// is asked with no user, and an event at stage ResponseStarted carries the 401 Status.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/audit.go (WithFailedAuthenticationAudit).
import { isStatusError } from '../../apimachinery/errors/status-error.ts';
import { AuditContext, nowMs } from '../../audit/context.ts';
import type { Auditor } from '../../audit/auditor.ts';
import { observePolicyLevel } from '../../audit/metrics.ts';
import { auditAttributes, newEvent } from './audit.ts';
import type { Filter } from './types.ts';

export const withFailedAuthenticationAudit = (auditor: Auditor): Filter => (next) => async (req, res, state) => {
  const received = nowMs();
  try {
    await next(req, res, state);
  } catch (err) {
    // Only authentication's own refusal: later filters run with a user.
    if (state.user !== undefined || !isStatusError(err) || err.status.code !== 401) throw err;
    const cfg = auditor.evaluate(auditAttributes(state, undefined));
    observePolicyLevel(cfg.level);
    if (cfg.level !== 'None') {
      const ac = new AuditContext(cfg, newEvent(req, res, state, cfg.level, undefined, received), auditor.sink);
      ac.event.responseStatus = { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
      await Promise.resolve(ac.processStage('ResponseStarted')).catch(() => {});
    }
    throw err;
  }
};
