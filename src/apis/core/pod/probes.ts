// Probes and lifecycle hooks (validateProbe, validateHandler, validateLifecycle and friends).
// Counterpart of pkg/apis/core/validation/validation.go (validateProbe).
import { forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { IS_NEGATIVE_ERROR_MSG } from '../../../apimachinery/validation/object-meta.ts';
import { isHTTPHeaderName, isValidPortName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import { child, has, list, num, objects, str, type Obj } from './spec-access.ts';

/** ValidatePortNumOrName of an IntOrString. */
export function validatePortNumOrName(port: unknown, p: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(p, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(p, port, m));
  return isValidPortNum(0).map((m) => invalid(p, 0, m));
}

function validateHTTPGet(h: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(h, 'path') === '') errs.push(required(p.child('path')));
  errs.push(...validatePortNumOrName(h['port'], p.child('port')));
  const scheme = str(h, 'scheme');
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(notSupported(p.child('scheme'), scheme, ['HTTP', 'HTTPS']));
  for (const header of objects(h, 'httpHeaders')) {
    for (const m of isHTTPHeaderName(str(header, 'name'))) errs.push(invalid(p.child('httpHeaders'), str(header, 'name'), m));
  }
  return errs;
}

/** validateHandler: exactly one action, each checked; `kinds` are the actions this handler has. */
function validateHandler(h: Obj, kinds: readonly string[], gracePeriod: number | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const kind of kinds) {
    const action = child(h, kind);
    if (action === undefined) continue;
    if (n > 0) {
      errs.push(forbidden(p.child(kind), 'may not specify more than 1 handler type'));
      continue;
    }
    n++;
    const ap = p.child(kind);
    switch (kind) {
      case 'exec': if (list(action, 'command').length === 0) errs.push(required(ap.child('command'))); break;
      case 'httpGet': errs.push(...validateHTTPGet(action, ap)); break;
      case 'tcpSocket': errs.push(...validatePortNumOrName(action['port'], ap.child('port'))); break;
      case 'grpc': errs.push(...validatePortNumOrName(num(action, 'port') ?? 0, ap.child('port'))); break;
      case 'sleep': {
        // PodLifecycleSleepActionAllowZero is on: 0 is allowed
        const seconds = num(action, 'seconds') ?? 0;
        if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
          errs.push(invalid(ap, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
        }
        break;
      }
      default: break;
    }
  }
  if (n === 0) errs.push(required(p, 'must specify a handler type'));
  return errs;
}

export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** validateLivenessProbe / validateReadinessProbe / validateStartupProbe. */
export function validateProbe(probe: Obj | undefined, kind: ProbeKind, gracePeriod: number | undefined, p: FieldPath): FieldError[] {
  if (probe === undefined) return [];
  const errs = validateHandler(probe, ['exec', 'httpGet', 'tcpSocket', 'grpc'], gracePeriod, p);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const v = num(probe, k) ?? 0;
    if (v < 0) errs.push(invalid(p.child(k), v, IS_NEGATIVE_ERROR_MSG));
  }
  const tgps = num(probe, 'terminationGracePeriodSeconds');
  if (tgps !== undefined && tgps <= 0) errs.push(invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  if (kind === 'readinessProbe') {
    if (tgps !== undefined) errs.push(invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
  } else {
    const success = num(probe, 'successThreshold') ?? 0;
    if (success !== 1) errs.push(invalid(p.child('successThreshold'), success, 'must be 1'));
  }
  return errs;
}

const LINUX_SIGNALS = ['SIGABRT', 'SIGALRM', 'SIGBUS', 'SIGCHLD', 'SIGCLD', 'SIGCONT', 'SIGFPE', 'SIGHUP', 'SIGILL', 'SIGINT', 'SIGIO', 'SIGIOT',
  'SIGKILL', 'SIGPIPE', 'SIGPOLL', 'SIGPROF', 'SIGPWR', 'SIGQUIT', 'SIGRTMAX', 'SIGRTMAX-1', 'SIGRTMAX-10', 'SIGRTMAX-11', 'SIGRTMAX-12',
  'SIGRTMAX-13', 'SIGRTMAX-14', 'SIGRTMAX-2', 'SIGRTMAX-3', 'SIGRTMAX-4', 'SIGRTMAX-5', 'SIGRTMAX-6', 'SIGRTMAX-7', 'SIGRTMAX-8', 'SIGRTMAX-9',
  'SIGRTMIN', 'SIGRTMIN+1', 'SIGRTMIN+10', 'SIGRTMIN+11', 'SIGRTMIN+12', 'SIGRTMIN+13', 'SIGRTMIN+14', 'SIGRTMIN+15', 'SIGRTMIN+2',
  'SIGRTMIN+3', 'SIGRTMIN+4', 'SIGRTMIN+5', 'SIGRTMIN+6', 'SIGRTMIN+7', 'SIGRTMIN+8', 'SIGRTMIN+9', 'SIGSEGV', 'SIGSTKFLT', 'SIGSTOP',
  'SIGSYS', 'SIGTERM', 'SIGTRAP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM', 'SIGWINCH', 'SIGXCPU', 'SIGXFSZ'];
const WINDOWS_SIGNALS = ['SIGKILL', 'SIGTERM'];

export function validateLifecycle(lc: Obj, gracePeriod: number | undefined, os: string | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = child(lc, hook);
    if (h !== undefined) errs.push(...validateHandler(h, ['exec', 'httpGet', 'tcpSocket', 'sleep'], gracePeriod, p.child(hook)));
  }
  if (has(lc, 'stopSignal')) {
    const signal = str(lc, 'stopSignal');
    const sp = p.child('stopSignal');
    if (os === undefined) errs.push(forbidden(sp, 'may not be set for containers with empty `spec.os.name`'));
    else if (os === 'windows' && !WINDOWS_SIGNALS.includes(signal)) errs.push(notSupported(sp, signal, WINDOWS_SIGNALS));
    else if (os === 'linux' && !LINUX_SIGNALS.includes(signal)) errs.push(notSupported(sp, signal, LINUX_SIGNALS));
  }
  return errs;
}
