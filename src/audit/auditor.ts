// The audit configuration of a server: the policy and the backends (log file or stdout, webhook),
// built from kube's --audit-* options. Auditing is on when a policy file is given and at least
// one backend is, as kube.
// Counterpart of k8s.io/apiserver/pkg/server/options/audit.go (AuditOptions.ApplyTo).
import { newModeSink, unionSink, withTruncate, type BatchOptions, type Mode, type TruncateOptions } from './backends.ts';
import { formatEvent, newLineWriter, type LogFileOptions, type LogFormat } from './log-backend.ts';
import { loadPolicyFile, newPolicyRuleEvaluator, type AuditAttributes } from './policy.ts';
import type { RequestAuditConfig, Sink } from './types.ts';
import { loadWebhookKubeconfig, newWebhookWriter } from './webhook-backend.ts';

export interface AuditLogOptions extends LogFileOptions {
  readonly format: LogFormat;
  readonly mode: Mode;
  readonly batch: BatchOptions;
  readonly truncate: TruncateOptions;
}

export interface AuditWebhookOptions {
  readonly configFile: string;
  readonly mode: Mode;
  readonly batch: BatchOptions;
  readonly truncate: TruncateOptions;
  readonly initialBackoffMs: number;
}

export interface AuditOptions {
  readonly policyFile: string | undefined;
  readonly log: AuditLogOptions | undefined;
  readonly webhook: AuditWebhookOptions | undefined;
}

export interface Auditor {
  /** The policy's decision for a request. */
  evaluate(a: AuditAttributes): RequestAuditConfig;
  readonly sink: Sink;
}

/**
 * The auditor the options describe, or undefined when auditing is off. Rejects with an Error
 * (start-up fails) when the policy, the log file or the webhook kubeconfig cannot be used.
 */
export async function newAuditor(opts: AuditOptions, log: (line: string) => void = () => {}): Promise<Auditor | undefined> {
  if (opts.policyFile === undefined) {
    if (opts.log !== undefined || opts.webhook !== undefined) log('warning: no audit policy file provided, no events will be recorded');
    return undefined;
  }
  const policy = await loadPolicyFile(opts.policyFile);
  const sinks: Sink[] = [];
  if (opts.log !== undefined) {
    const l = opts.log;
    const writer = newLineWriter(l);
    const write = withTruncate('log', l.truncate, (events) => { writer.write(events.map((e) => formatEvent(e, l.format)).join('')); });
    sinks.push(newModeSink('log', l.mode, write, l.batch, () => { writer.close(); }));
  }
  if (opts.webhook !== undefined) {
    const w = opts.webhook;
    const target = await loadWebhookKubeconfig(w.configFile).catch((err: Error) => {
      throw new Error(`initializing audit webhook: ${err.message}`);
    });
    sinks.push(newModeSink('webhook', w.mode, withTruncate('webhook', w.truncate, newWebhookWriter(target, w.initialBackoffMs)), w.batch, () => {}));
  }
  if (sinks.length === 0) return undefined;
  return { evaluate: newPolicyRuleEvaluator(policy), sink: unionSink(sinks) };
}
