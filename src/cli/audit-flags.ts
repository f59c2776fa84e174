// The --audit-* flags of kube-apiserver: names, kinds, defaults and help texts, and their
// validation with kube's messages (in kube's order: per backend, mode, batch, truncate, version,
// then the log's format and file limits).
// Counterpart of k8s.io/apiserver/pkg/server/options/audit.go.
import type { AuditOptions, AuditLogOptions, AuditWebhookOptions } from '../audit/auditor.ts';
import { MODES, type BatchOptions, type Mode, type TruncateOptions } from '../audit/backends.ts';

/** flag-table's FlagDef (restated: the table imports these). An empty default is the kind's zero value, not shown in --help. */
interface FlagDef { readonly name: string; readonly kind: 'int' | 'float32' | 'string' | 'bool' | 'duration'; readonly def: string; readonly usage: string }

const BATCH_ONLY = 'Only used in batch mode.';

function backendFlags(p: 'log' | 'webhook', d: { bufferSize: string; maxSize: string; maxWait: string; burst: string; enable: string; qps: string }): FlagDef[] {
  const flag = (suffix: string, kind: FlagDef['kind'], def: string, usage: string): FlagDef => ({ name: `audit-${p}-${suffix}`, kind, def, usage });
  return [
    flag('batch-buffer-size', 'int', d.bufferSize, `The size of the buffer to store events before batching and writing. ${BATCH_ONLY}`),
    flag('batch-max-size', 'int', d.maxSize, `The maximum size of a batch. ${BATCH_ONLY}`),
    flag('batch-max-wait', 'duration', d.maxWait, `The amount of time to wait before force writing the batch that hadn't reached the max size. ${BATCH_ONLY}`),
    flag('batch-throttle-burst', 'int', d.burst, `Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. ${BATCH_ONLY}`),
    flag('batch-throttle-enable', 'bool', d.enable, `Whether batching throttling is enabled. ${BATCH_ONLY}`),
    flag('batch-throttle-qps', 'float32', d.qps, `Maximum average number of batches per second. ${BATCH_ONLY}`),
  ];
}

const MODE_USAGE = 'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.';

function truncateFlags(p: 'log' | 'webhook'): FlagDef[] {
  return [
    { name: `audit-${p}-truncate-enabled`, kind: 'bool', def: 'false', usage: 'Whether event and batch truncating is enabled.' },
    { name: `audit-${p}-truncate-max-batch-size`, kind: 'int', def: '10485760', usage: 'Maximum size of the batch sent to the underlying backend. Actual serialized size can be several hundreds of bytes greater. If a batch exceeds this limit, it is split into several batches of smaller size.' },
    { name: `audit-${p}-truncate-max-event-size`, kind: 'int', def: '102400', usage: 'Maximum size of the audit event sent to the underlying backend. If the size of an event is greater than this number, first request and response are removed, and if this doesn\'t reduce the size enough, event is discarded.' },
  ];
}

/** In kube's --help order. */
export const AUDIT_FLAGS: readonly FlagDef[] = [
  ...backendFlags('log', { bufferSize: '10000', maxSize: '1', maxWait: '', burst: '', enable: 'false', qps: '' }),
  { name: 'audit-log-compress', kind: 'bool', def: 'false', usage: 'If set, the rotated log files will be compressed using gzip.' },
  { name: 'audit-log-format', kind: 'string', def: 'json', usage: 'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are legacy,json.' },
  { name: 'audit-log-maxage', kind: 'int', def: '366', usage: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename. Setting a value of 0 means old audit log files are not removed based on age.' },
  { name: 'audit-log-maxbackup', kind: 'int', def: '100', usage: 'The maximum number of old audit log files to retain. Setting a value of 0 will mean there\'s no restriction on the number of files.' },
  { name: 'audit-log-maxsize', kind: 'int', def: '100', usage: 'The maximum size in megabytes of the audit log file before it gets rotated. Setting to 0 disables rotation (not recommended).' },
  { name: 'audit-log-mode', kind: 'string', def: 'blocking', usage: MODE_USAGE },
  { name: 'audit-log-path', kind: 'string', def: '', usage: 'If set, all requests coming to the apiserver will be logged to this file.  \'-\' means standard out.' },
  ...truncateFlags('log'),
  { name: 'audit-log-version', kind: 'string', def: 'audit.k8s.io/v1', usage: 'API group and version used for serializing audit events written to log.' },
  { name: 'audit-policy-file', kind: 'string', def: '', usage: 'Path to the file that defines the audit policy configuration.' },
  ...backendFlags('webhook', { bufferSize: '10000', maxSize: '400', maxWait: '30s', burst: '15', enable: 'true', qps: '10' }),
  { name: 'audit-webhook-config-file', kind: 'string', def: '', usage: 'Path to a kubeconfig formatted file that defines the audit webhook configuration.' },
  { name: 'audit-webhook-initial-backoff', kind: 'duration', def: '10s', usage: 'The amount of time to wait before retrying the first failed request.' },
  { name: 'audit-webhook-mode', kind: 'string', def: 'batch', usage: MODE_USAGE },
  ...truncateFlags('webhook'),
  { name: 'audit-webhook-version', kind: 'string', def: 'audit.k8s.io/v1', usage: 'API group and version used for serializing audit events written to webhook.' },
];

type Get = (name: string) => unknown;

function batchOptions(get: Get, p: string): BatchOptions {
  return {
    bufferSize: get(`audit-${p}-batch-buffer-size`) as number, maxBatchSize: get(`audit-${p}-batch-max-size`) as number,
    maxBatchWaitMs: get(`audit-${p}-batch-max-wait`) as number, throttleEnable: get(`audit-${p}-batch-throttle-enable`) as boolean,
    throttleQPS: get(`audit-${p}-batch-throttle-qps`) as number, throttleBurst: get(`audit-${p}-batch-throttle-burst`) as number,
  };
}

function truncateOptions(get: Get, p: string): TruncateOptions {
  return {
    enabled: get(`audit-${p}-truncate-enabled`) as boolean, maxEventSize: get(`audit-${p}-truncate-max-event-size`) as number,
    maxBatchSize: get(`audit-${p}-truncate-max-batch-size`) as number,
  };
}

/** validateBackendOptions: mode, then batch options (first error only), truncate options, version. */
function validateBackend(p: string, mode: string, b: BatchOptions, t: TruncateOptions, version: string, errs: string[]): void {
  if (!MODES.includes(mode as Mode)) errs.push(`invalid audit ${p} mode ${mode}, allowed modes are "${MODES.join(',')}"`);
  if (mode === 'batch') {
    const batchErr = b.bufferSize <= 0 ? `invalid audit batch ${p} buffer size ${b.bufferSize}, must be a positive number`
      : b.maxBatchSize <= 0 ? `invalid audit batch ${p} max batch size ${b.maxBatchSize}, must be a positive number`
        : b.throttleEnable && b.throttleQPS <= 0 ? `invalid audit batch ${p} throttle QPS ${b.throttleQPS}, must be a positive number`
          : b.throttleEnable && b.throttleBurst <= 0 ? `invalid audit batch ${p} throttle burst ${b.throttleBurst}, must be a positive number` : undefined;
    if (batchErr !== undefined) errs.push(batchErr);
  }
  if (t.enabled) {
    if (t.maxEventSize <= 0) errs.push(`invalid audit truncate ${p} max event size ${t.maxEventSize}, must be a positive number`);
    else if (t.maxBatchSize < t.maxEventSize) errs.push(`invalid audit truncate ${p} max batch size ${t.maxBatchSize}, must be greater than max event size (${t.maxEventSize})`);
  }
  if (version !== 'audit.k8s.io/v1') errs.push('invalid group version, allowed versions are ["audit.k8s.io/v1"]');
}

/** The audit options of the flags; validation errors go to `errs`. */
export function auditOptions(get: Get, errs: string[]): AuditOptions {
  const str = (n: string): string => get(n) as string;
  const num = (n: string): number => get(n) as number;
  let log: AuditLogOptions | undefined;
  const path = str('audit-log-path');
  if (path !== '') {
    const batch = batchOptions(get, 'log');
    const truncate = truncateOptions(get, 'log');
    validateBackend('log', str('audit-log-mode'), batch, truncate, str('audit-log-version'), errs);
    const format = str('audit-log-format');
    if (format !== 'json' && format !== 'legacy') errs.push(`invalid audit log format ${format}, allowed formats are "legacy,json"`);
    for (const n of ['audit-log-maxage', 'audit-log-maxbackup', 'audit-log-maxsize']) if (num(n) < 0) errs.push(`--${n} ${num(n)} can't be a negative number`);
    log = {
      path, format: format === 'legacy' ? 'legacy' : 'json', mode: str('audit-log-mode') as Mode, batch, truncate,
      maxAgeDays: num('audit-log-maxage'), maxBackups: num('audit-log-maxbackup'), maxSizeMB: num('audit-log-maxsize'),
      compress: get('audit-log-compress') as boolean,
    };
  }
  let webhook: AuditWebhookOptions | undefined;
  const configFile = str('audit-webhook-config-file');
  if (configFile !== '') {
    const batch = batchOptions(get, 'webhook');
    const truncate = truncateOptions(get, 'webhook');
    validateBackend('webhook', str('audit-webhook-mode'), batch, truncate, str('audit-webhook-version'), errs);
    webhook = { configFile, mode: str('audit-webhook-mode') as Mode, batch, truncate, initialBackoffMs: num('audit-webhook-initial-backoff') };
  }
  const policy = str('audit-policy-file');
  return { policyFile: policy === '' ? undefined : policy, log, webhook };
}
