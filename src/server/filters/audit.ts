// Audit: each request the policy gives a level above None gets an event, sent at its stages:
// RequestReceived when it arrives, ResponseStarted when a long-running response (a watch) sends
// its headers, ResponseComplete when the response is done, Panic when the handler failed with
// something other than an API error. The Audit-Id header (audit-init.ts) names the event.
// Without --audit-policy-file this filter is not in the chain.
// Counterpart of k8s.io/apiserver/pkg/endpoints/filters/audit.go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isStatusError, newInternalError } from '../../apimachinery/errors/status-error.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { AuditContext, microTime, nowMs } from '../../audit/context.ts';
import type { Auditor } from '../../audit/auditor.ts';
import { observePolicyLevel, observeRequestRejected } from '../../audit/metrics.ts';
import type { AuditAttributes } from '../../audit/policy.ts';
import type { AuditEvent, EventUser, ObjectReference } from '../../audit/types.ts';
import type { RequestState } from '../../endpoints/request/state.ts';
import { writeError } from '../../endpoints/handlers/response.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { Filter } from './types.ts';

export function eventUser(u: UserInfo | undefined): EventUser {
  if (u === undefined) return {};
  return {
    username: u.name, ...(u.uid !== undefined && u.uid !== '' ? { uid: u.uid } : {}), groups: [...u.groups],
    ...(u.extra !== undefined && Object.keys(u.extra).length > 0 ? { extra: Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]])) } : {}),
  };
}

/** utilnet.SourceIPs: X-Forwarded-For's addresses, then X-Real-Ip, then the peer, each once. */
export function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const forwarded = req.headers['x-forwarded-for'];
  for (const part of (Array.isArray(forwarded) ? forwarded.join(',') : forwarded ?? '').split(',')) {
    const ip = part.trim();
    if (ip !== '') ips.push(ip);
  }
  const real = String(req.headers['x-real-ip'] ?? '').trim();
  if (real !== '' && !ips.includes(real)) ips.push(real);
  const remote = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  if (remote !== '' && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}

export function auditAttributes(state: RequestState, user: UserInfo | undefined): AuditAttributes {
  const info = state.info;
  return {
    user, verb: info?.verb ?? '', isResourceRequest: info?.isResourceRequest ?? false, path: info?.path ?? state.path,
    apiGroup: info?.apiGroup ?? '', namespace: info?.namespace ?? '', resource: info?.resource ?? '',
    subresource: info?.subresource ?? '', name: info?.name ?? '',
  };
}

function objectRef(state: RequestState): ObjectReference | undefined {
  const info = state.info;
  if (info === undefined || !info.isResourceRequest) return undefined;
  return {
    ...(info.resource !== '' ? { resource: info.resource } : {}), ...(info.namespace !== '' ? { namespace: info.namespace } : {}),
    ...(info.name !== '' ? { name: info.name } : {}), ...(info.apiGroup !== '' ? { apiGroup: info.apiGroup } : {}),
    ...(info.apiVersion !== '' ? { apiVersion: info.apiVersion } : {}), ...(info.subresource !== '' ? { subresource: info.subresource } : {}),
  };
}

/** The event of a request as it arrives (NewEventFromRequest). */
export function newEvent(req: IncomingMessage, res: ServerResponse, state: RequestState, level: AuditEvent['level'], user: UserInfo | undefined,
  receivedMs: number): AuditEvent {
  const ref = objectRef(state);
  const ua = req.headers['user-agent'] ?? '';
  const ts = microTime(receivedMs);
  return {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level, auditID: String(res.getHeader('Audit-Id') ?? ''), stage: 'RequestReceived',
    requestURI: req.url ?? '', verb: state.info?.verb ?? (req.method ?? '').toLowerCase(), user: eventUser(user), sourceIPs: sourceIPs(req),
    ...(ua !== '' ? { userAgent: ua } : {}), ...(ref !== undefined ? { objectRef: ref } : {}),
    requestReceivedTimestamp: ts, stageTimestamp: ts,
  };
}

/** The annotations recorded so far (authorization, admission) go into the event before each stage. */
function collectAnnotations(ac: AuditContext, state: RequestState): void {
  for (const [k, v] of state.auditAnnotations) ac.addAnnotation(k, v);
}

export const withAudit = (auditor: Auditor): Filter => (next) => async (req, res, state) => {
  const received = nowMs();
  const user = state.user;
  const cfg = auditor.evaluate(auditAttributes(state, user));
  observePolicyLevel(cfg.level);
  if (cfg.level === 'None') { await next(req, res, state); return; }
  const ac = new AuditContext(cfg, newEvent(req, res, state, cfg.level, user, received), auditor.sink);
  state.audit = ac;
  try {
    await ac.processStage('RequestReceived');
  } catch (err) {
    // blocking-strict: a request that cannot be audited is not served.
    observeRequestRejected();
    writeError(res, newInternalError(err instanceof Error ? err : new Error(String(err))), undefined, state);
    return;
  }
  const info = state.info;
  if (info !== undefined && isLongRunning(info.verb, info.subresource)) {
    // The headers of a long-running response are its ResponseStarted stage.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    let started = false;
    res.writeHead = ((...args: unknown[]): ServerResponse => {
      if (!started) {
        started = true;
        ac.setResponseCode(typeof args[0] === 'number' ? args[0] : res.statusCode);
        collectAnnotations(ac, state);
        void Promise.resolve(ac.processStage('ResponseStarted')).catch(() => {});
      }
      return writeHead(...args);
    }) as ServerResponse['writeHead'];
  }
  const complete = (): void => {
    if (ac.isCompleted) return;
    if (state.user !== user && state.user !== undefined) ac.event.impersonatedUser = eventUser(state.user);
    ac.setResponseCode(res.statusCode);
    collectAnnotations(ac, state);
    void Promise.resolve(ac.processStage('ResponseComplete')).catch(() => {});
  };
  res.once('finish', complete);
  res.once('close', complete);
  try {
    await next(req, res, state);
  } catch (err) {
    if (!isStatusError(err) && !ac.isCompleted) {
      // What kube audits as a panic: the handler failed with no API error to answer.
      ac.event.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500 };
      collectAnnotations(ac, state);
      void Promise.resolve(ac.processStage('Panic')).catch(() => {});
    }
    throw err;
  }
};
