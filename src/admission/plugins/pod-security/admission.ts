// The PodSecurity decision for one request: namespaces (label validation, and warnings about
// existing pods when the enforce level tightens), pods (enforce, audit, warn), and the workload
// resources that embed a pod template (audit and warn only, never a denial).
// Counterpart of k8s.io/pod-security-admission/admission (admission.go, response.go).
import {
  newBadRequest, newForbidden, newInternalError, newInvalid, type StatusError,
} from '../../../apimachinery/errors/status-error.ts';
import { aggregateMessages, formatFieldError, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { Namespace, Pod, PodSpec } from '../../../generated/types/corev1.gen.ts';
import {
  AUDIT_VIOLATIONS_ANNOTATION, ENFORCED_POLICY_ANNOTATION, EXEMPTION_REASON_ANNOTATION, compareLevels, fullyPrivileged,
  lvString, policyToEvaluate, sameLevelVersion, sameVersion, type LevelVersion, type Policy,
} from './api.ts';
import type { PodSecurityConfiguration } from './config.ts';
import { exemptNamespaceWarning } from './exempt-warning.ts';
import { evaluatePodsInNamespace, type ListedPod } from './namespace-pods.ts';
import { extractPodTemplate } from './pod-specs.ts';
import { aggregate, forbiddenDetail, type AggregateResult, type Evaluator } from './policy/registry.ts';
import type { PodMeta } from './policy/check.ts';

/** What the plugin does with a decision: refuse with `error`, add the warnings and audit annotations. */
export interface Decision {
  readonly error?: StatusError;
  readonly warnings: readonly string[];
  /** Keys without the pod-security.kubernetes.io/ prefix. */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** The request as the decision sees it. */
export interface PodSecurityRequest {
  readonly operation: 'CREATE' | 'UPDATE';
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kindGroup: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly userName: string;
  readonly object: unknown;
  readonly oldObject: unknown;
  /** Epoch ms when the request times out, if it does. */
  readonly deadline?: number;
}

export interface PodSecurityDeps {
  readonly config: PodSecurityConfiguration;
  readonly evaluator: Evaluator;
  /** Resolves undefined when the namespace does not exist; rejects when it cannot be read. */
  readonly getNamespace: (name: string) => Promise<Namespace | undefined>;
  readonly listPods: (namespace: string) => Promise<readonly ListedPod[]>;
}

const ALLOWED: Decision = { warnings: [], auditAnnotations: {} };
const exempt = (why: string): Decision => ({ warnings: [], auditAnnotations: { [EXEMPTION_REASON_ANNOTATION]: why } });
const PRIVILEGED_ALLOWED: Decision = { warnings: [], auditAnnotations: { [ENFORCED_POLICY_ANNOTATION]: 'privileged:latest' } };

/** A refusal built from an error status, with kube's `error` audit annotation. */
function errorDecision(error: StatusError, cause?: string): Decision {
  const message = error.status.message ?? '';
  return { error, warnings: [], auditAnnotations: { error: cause === undefined ? message : `${message}: ${cause}` } };
}

/** Pod subresources that cannot change the pod spec; any other one carries a Pod and is checked. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

export class PodSecurityAdmission {
  constructor(private readonly deps: PodSecurityDeps) {}

  private policyOf(labels: Readonly<Record<string, string>> | undefined): { policy: Policy; errors: FieldError[] } {
    return policyToEvaluate(labels, this.deps.config.defaults);
  }

  private exemptNamespace(ns: string): boolean { return ns !== '' && this.deps.config.exemptions.namespaces.includes(ns); }
  private exemptUser(user: string): boolean { return user !== '' && this.deps.config.exemptions.usernames.includes(user); }
  private exemptRuntimeClass(rc: string | undefined): boolean {
    return rc != null && rc !== '' && this.deps.config.exemptions.runtimeClasses.includes(rc);
  }

  async validate(req: PodSecurityRequest): Promise<Decision> {
    if (req.group === '' && req.resource === 'namespaces') return this.validateNamespace(req);
    if (req.group === '' && req.resource === 'pods') return this.validatePod(req);
    return this.validatePodController(req);
  }

  private async validateNamespace(req: PodSecurityRequest): Promise<Decision> {
    if (req.subresource !== '') return ALLOWED;
    const ns = req.object as Namespace | undefined;
    if (ns == null) return errorDecision(newBadRequest('failed to decode namespace'));
    const labels = ns.metadata?.labels;
    const { policy, errors } = this.policyOf(labels);
    const invalid = (): Decision => ({ error: newInvalid({ group: req.kindGroup, kind: req.kind }, req.name, errors), warnings: [], auditAnnotations: {} });
    const exemptWarning = (): Decision => {
      const w = exemptNamespaceWarning(ns.metadata?.name ?? '', policy, labels ?? {}, this.deps.config.defaults);
      return w === '' ? ALLOWED : { warnings: [w], auditAnnotations: {} };
    };
    if (req.operation === 'CREATE') {
      if (errors.length > 0) return invalid();
      return this.exemptNamespace(req.namespace) ? exemptWarning() : ALLOWED;
    }
    const old = req.oldObject as Namespace | undefined;
    if (old == null) return errorDecision(newBadRequest('failed to decode  old namespace'));
    const before = this.policyOf(old.metadata?.labels);
    // Bad labels already there may stay; a change must leave them valid.
    if (errors.length > 0 && (before.errors.length === 0 || JSON.stringify(errors) !== JSON.stringify(before.errors))) return invalid();
    const [now, was] = [policy.enforce, before.policy.enforce];
    if (sameLevelVersion(now, was) || now.level === 'privileged') return ALLOWED;
    if (sameVersion(now.version, was.version) && compareLevels(now.level, was.level) < 1) return ALLOWED;
    if (this.exemptNamespace(req.namespace)) return exemptWarning();
    const pods = await this.deps.listPods(ns.metadata?.name ?? '').then((p) => p, () => undefined);
    const warnings = pods === undefined ? ['failed to list pods while checking new PodSecurity enforce level']
      : evaluatePodsInNamespace(this.deps.evaluator, ns.metadata?.name ?? '', now, pods, (rc) => this.exemptRuntimeClass(rc), req.deadline);
    return { warnings, auditAnnotations: {} };
  }

  private async namespacePolicy(req: PodSecurityRequest): Promise<{ policy: Policy; errors: FieldError[] } | { lookupError: string }> {
    try {
      const ns = await this.deps.getNamespace(req.namespace);
      if (ns === undefined) return { lookupError: `namespaces "${req.namespace}" not found` };
      return this.policyOf(ns.metadata?.labels);
    } catch (err) {
      return { lookupError: err instanceof Error ? err.message : String(err) };
    }
  }

  private async validatePod(req: PodSecurityRequest): Promise<Decision> {
    if (IGNORED_POD_SUBRESOURCES.has(req.subresource)) return ALLOWED;
    if (this.exemptNamespace(req.namespace)) return exempt('namespace');
    if (this.exemptUser(req.userName)) return exempt('user');
    const found = await this.namespacePolicy(req);
    if ('lookupError' in found) return errorDecision(newInternalError(new Error(`failed to lookup namespace "${req.namespace}"`)), found.lookupError);
    if (found.errors.length === 0 && fullyPrivileged(found.policy)) return PRIVILEGED_ALLOWED;
    const pod = req.object as Pod | undefined;
    if (pod == null) return errorDecision(newBadRequest('failed to decode pod'));
    if (req.operation === 'UPDATE') {
      const old = req.oldObject as Pod | undefined;
      if (old == null) return errorDecision(newBadRequest('failed to decode old pod'));
      // Only what can change the security posture is checked again: images and ephemeral containers.
      if (!isSignificantPodUpdate(pod.spec ?? { containers: [] }, old.spec ?? { containers: [] })) return ALLOWED;
    }
    return this.evaluatePod(req, found.policy, found.errors, pod.metadata ?? {}, pod.spec ?? { containers: [] }, true);
  }

  private async validatePodController(req: PodSecurityRequest): Promise<Decision> {
    if (req.subresource !== '') return ALLOWED;
    if (this.exemptNamespace(req.namespace)) return exempt('namespace');
    if (this.exemptUser(req.userName)) return exempt('user');
    const found = await this.namespacePolicy(req);
    if ('lookupError' in found) {
      return { warnings: [], auditAnnotations: { error: `failed to lookup namespace "${req.namespace}": ${found.lookupError}` } };
    }
    if (found.errors.length === 0 && found.policy.warn.level === 'privileged' && found.policy.audit.level === 'privileged') return ALLOWED;
    const template = extractPodTemplate(req.group, req.resource, req.object);
    if (template === undefined) return ALLOWED;
    return this.evaluatePod(req, found.policy, found.errors, template.metadata, template.spec, false);
  }

  /** Enforce (pods only), then audit, then warn, each level:version evaluated once. */
  private evaluatePod(req: PodSecurityRequest, policy: Policy, policyErrors: readonly FieldError[], meta: PodMeta,
    spec: Readonly<PodSpec>, enforce: boolean): Decision {
    if (this.exemptRuntimeClass(spec.runtimeClassName)) return exempt('runtimeClass');
    const annotations: Record<string, string> = {};
    if (policyErrors.length > 0) annotations['error'] = `Failed to parse policy: ${aggregateFieldErrors(policyErrors)}`;
    const cache = new Map<string, AggregateResult>();
    const evaluate = (lv: LevelVersion): AggregateResult => {
      const key = lvString(lv);
      let r = cache.get(key);
      if (r === undefined) cache.set(key, r = aggregate(this.deps.evaluator.evaluatePod(lv, meta, spec)));
      return r;
    };
    let error: StatusError | undefined;
    if (enforce) {
      annotations[ENFORCED_POLICY_ANNOTATION] = lvString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) {
        error = newForbidden({ group: req.group, resource: req.resource }, req.name,
          `violates PodSecurity "${lvString(policy.enforce)}": ${forbiddenDetail(r)}`);
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations[AUDIT_VIOLATIONS_ANNOTATION] = `would violate PodSecurity "${lvString(policy.audit)}": ${forbiddenDetail(audit)}`;
    const warnings: string[] = [];
    // A request about to be refused gets no warnings.
    if (error === undefined) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) warnings.push(`would violate PodSecurity "${lvString(policy.warn)}": ${forbiddenDetail(warn)}`);
    }
    return { ...(error === undefined ? {} : { error }), warnings, auditAnnotations: annotations };
  }
}

/** field.ErrorList.ToAggregate().Error(): one message, or several bracketed. */
const aggregateFieldErrors = (errs: readonly FieldError[]): string => aggregateMessages(errs.map(formatFieldError));

function isSignificantPodUpdate(spec: Readonly<PodSpec>, old: Readonly<PodSpec>): boolean {
  const [c, oc, ic, oic] = [spec.containers ?? [], old.containers ?? [], spec.initContainers ?? [], old.initContainers ?? []];
  if (c.length !== oc.length || ic.length !== oic.length) return true;
  if (c.some((x, i) => x.image !== oc[i]?.image) || ic.some((x, i) => x.image !== oic[i]?.image)) return true;
  for (const e of spec.ephemeralContainers ?? []) {
    const before = (old.ephemeralContainers ?? []).find((o) => o.name === e.name);
    if (before === undefined || before.image !== e.image) return true;
  }
  return false;
}
