// ValidatingWebhookConfigurations and MutatingWebhookConfigurations
// (pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration): cluster-scoped,
// generation bumped when webhooks change; kube's v1 defaults and webhook validation.
import { duplicate, fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import { sameMatchConditions, validateMatchConditions } from '../match-conditions.ts';
import { webhookMatchConditionProblem } from '../../../admission/policy/validating/compile.ts';
import { defaultRule, MATCH_POLICIES, validateRuleWithOperations } from '../rules.ts';
import type { Webhook, WebhookConfiguration } from '../v1/types.ts';
import { validateClientConfig } from './client-config.ts';

type RO<T> = DeepReadonly<T>;
type Kind = 'Validating' | 'Mutating';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** The AdmissionReview versions the previous release understood (v1alpha1 is not one of them). */
const ACCEPTED_ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook (v1). */
function defaultWebhook(kind: Kind, w: Webhook): void {
  w.failurePolicy ??= 'Fail';
  w.matchPolicy ??= 'Equivalent';
  w.namespaceSelector ??= {};
  w.objectSelector ??= {};
  w.timeoutSeconds ??= 10;
  if (kind === 'Mutating') w.reinvocationPolicy ??= 'Never';
  for (const r of w.rules ?? []) defaultRule(r);
  if (w.clientConfig?.service !== undefined) w.clientConfig.service.port ??= 443;
}

/** utilvalidation.IsFullyQualifiedName. */
function isFullyQualifiedName(p: FieldPath, name: string): FieldError[] {
  if (name.length === 0) return [required(p, '')];
  const msgs = isDNS1123Subdomain(name);
  if (msgs.length > 0) return msgs.map((m) => invalid(p, name, m));
  if (name.split('.').length < 3) return [invalid(p, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedVersion: boolean;
  requireUniqueNames: boolean;
  /** Selector values stored before kube checked them stay accepted. */
  allowInvalidLabelValueInSelector: boolean;
  /** An update that keeps every webhook's match conditions does not check them again. */
  ignoreMatchConditions: boolean;
}

function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, p: FieldPath): FieldError[] {
  if (versions.length < 1) return [required(p, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push(invalid(p.index(i), v, 'duplicate version')); return; }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(p.index(i), v, m));
    if (ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(invalid(p, versions, `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(kind: Kind, w: RO<Webhook>, opts: Options, p: FieldPath): FieldError[] {
  const errs = isFullyQualifiedName(p.child('name'), w.name ?? '');
  (w.rules ?? []).forEach((r, i) => errs.push(...validateRuleWithOperations(r, p.child('rules').index(i))));
  if (w.failurePolicy !== undefined && !FAILURE_POLICIES.includes(w.failurePolicy)) errs.push(notSupported(p.child('failurePolicy'), w.failurePolicy, FAILURE_POLICIES));
  if (w.matchPolicy !== undefined && !MATCH_POLICIES.includes(w.matchPolicy)) errs.push(notSupported(p.child('matchPolicy'), w.matchPolicy, MATCH_POLICIES));
  const allowed = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (w.sideEffects === undefined) errs.push(required(p.child('sideEffects'), `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(w.sideEffects)) errs.push(notSupported(p.child('sideEffects'), w.sideEffects, allowed));
  if (w.timeoutSeconds !== undefined && (w.timeoutSeconds > 30 || w.timeoutSeconds < 1)) {
    errs.push(invalid(p.child('timeoutSeconds'), w.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  errs.push(...validateLabelSelector(w.namespaceSelector, selectorOpts, p.child('namespaceSelector')));
  errs.push(...validateLabelSelector(w.objectSelector, selectorOpts, p.child('objectSelector')));
  if (kind === 'Mutating' && w.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(w.reinvocationPolicy)) {
    errs.push(notSupported(p.child('reinvocationPolicy'), w.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  errs.push(...validateClientConfig(w.clientConfig, p.child('clientConfig')));
  if (!opts.ignoreMatchConditions) {
    const conditions = w.matchConditions ?? [];
    errs.push(...validateMatchConditions(conditions, p.child('matchConditions'), (i) => webhookMatchConditionProblem(conditions[i]?.expression ?? '')));
  }
  return errs;
}

function validateConfiguration(kind: Kind, c: RO<WebhookConfiguration>, opts: Options): FieldError[] {
  const errs = validateObjectMeta(c.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const names = new Set<string>();
  (c.webhooks ?? []).forEach((w, i) => {
    const p = fieldPath('webhooks').index(i);
    errs.push(...validateWebhook(kind, w, opts, p));
    errs.push(...validateAdmissionReviewVersions(w.admissionReviewVersions ?? [], opts.requireRecognizedVersion, p.child('admissionReviewVersions')));
    const name = w.name ?? '';
    if (opts.requireUniqueNames && name.length > 0) {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      names.add(name);
    }
  });
  return errs;
}

const STRICT: Options = {
  requireNoSideEffects: true, requireRecognizedVersion: true, requireUniqueNames: true, allowInvalidLabelValueInSelector: false, ignoreMatchConditions: false,
};

const hasInvalidSelector = (w: RO<Webhook>): boolean =>
  validateLabelSelector(w.namespaceSelector, {}).length > 0 || validateLabelSelector(w.objectSelector, {}).length > 0;

/** On update kube keeps accepting what the stored object already got away with. */
function updateOptions(c: RO<WebhookConfiguration>, old: RO<WebhookConfiguration>): Options {
  const hooks = old.webhooks ?? [];
  const next = c.webhooks ?? [];
  const names = hooks.map((w) => w.name ?? '');
  return {
    requireNoSideEffects: hooks.every((w) => w.sideEffects === undefined || NO_SIDE_EFFECTS.includes(w.sideEffects)),
    requireRecognizedVersion: hooks.every((w) => (w.admissionReviewVersions ?? []).length === 0 ||
      (w.admissionReviewVersions ?? []).some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v))),
    requireUniqueNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: hooks.some(hasInvalidSelector),
    ignoreMatchConditions: next.length === hooks.length && hooks.every((w, i) => sameMatchConditions(next[i]?.matchConditions, w.matchConditions)),
  };
}

function definition(kind: Kind) {
  const lower = `${kind.toLowerCase()}webhookconfiguration`;
  return {
    group: 'admissionregistration.k8s.io', kind: `${kind}WebhookConfiguration`, resource: `${lower}s`, singular: lower,
    namespaced: false,
    strategy: specStatusStrategy<WebhookConfiguration>({
      allowUnconditionalUpdate: false, generation: true, specFields: ['webhooks'],
      validate: (c) => validateConfiguration(kind, c, STRICT),
      revalidateOnUpdate: false,
      validateUpdate: (c, old) => validateConfiguration(kind, c, updateOptions(c, old)).filter((e) => !e.field.startsWith('metadata.')),
    }),
    defaults: (c) => { for (const w of c.webhooks ?? []) defaultWebhook(kind, w); },
    table: [
      nameColumn<WebhookConfiguration>(),
      column<WebhookConfiguration>('Webhooks', 'integer', (c) => (c.webhooks ?? []).length),
      ageColumn<WebhookConfiguration>(),
    ],
  } satisfies ResourceDefinition<WebhookConfiguration>;
}

export const validatingWebhookConfigurations = definition('Validating');
export const mutatingWebhookConfigurations = definition('Mutating');
