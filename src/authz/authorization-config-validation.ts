// ValidateAuthorizationConfiguration and ValidateWebhookConfiguration with kube's field paths and
// texts; the matchConditions are compiled on the way (a webhook keeps its programs).
// Counterpart of k8s.io/apiserver/pkg/apis/apiserver/validation/validation.go (the authorization part).
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  duplicate, fieldPath, invalid, notSupported, required, tooMany, type FieldError, type FieldPath,
} from '../apimachinery/errors/field-errors.ts';
import { isDNS1123Subdomain } from '../apimachinery/validation/validation.ts';
import { goDuration } from '../webhook/index.ts';
import type { Program } from '../cel/index.ts';
import type { AuthorizationConfiguration, WebhookConfiguration } from './authorization-config-types.ts';
import { compileMatchCondition } from './match-conditions.ts';

/** The authorizer types kube knows, sorted as its messages list them. */
export const KNOWN_AUTHORIZER_TYPES = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'] as const;
const REPEATABLE = new Set(['Webhook']);
const MAX_MATCH_CONDITIONS = 64;
const MAX_TIMEOUT_MS = 30_000;

/** time.Duration.String, negatives included. */
const durationText = (ms: number): string => (ms < 0 ? `-${goDuration(-ms)}` : goDuration(ms));

export function validateAuthorizationConfiguration(c: AuthorizationConfiguration): { errors: FieldError[]; matchConditions: Map<number, Program[]> } {
  const errs: FieldError[] = [];
  const matchConditions = new Map<number, Program[]>();
  if (c.authorizers.length === 0) errs.push(required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  c.authorizers.forEach((a, i) => {
    const p = fieldPath('authorizers').index(i);
    if (a.type === '') { errs.push(required(p.child('type'))); return; }
    if (!(KNOWN_AUTHORIZER_TYPES as readonly string[]).includes(a.type)) { errs.push(notSupported(p.child('type'), a.type, KNOWN_AUTHORIZER_TYPES)); return; }
    if (seenTypes.has(a.type) && !REPEATABLE.has(a.type)) { errs.push(duplicate(p.child('type'), a.type)); return; }
    seenTypes.add(a.type);
    if (a.name === '') errs.push(required(p.child('name')));
    else if (seenNames.has(a.name)) errs.push(duplicate(p.child('name'), a.name));
    else {
      const bad = isDNS1123Subdomain(a.name);
      if (bad.length > 0) errs.push(invalid(p.child('name'), a.name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(a.name);
    if (a.type === 'Webhook') {
      if (a.webhook === undefined) { errs.push(required(p.child('webhook'), 'required when type=Webhook')); return; }
      const r = validateWebhookConfiguration(p, a.webhook);
      errs.push(...r.errors);
      if (r.programs.length > 0) matchConditions.set(i, r.programs);
    } else if (a.webhook !== undefined) {
      errs.push(invalid(p.child('webhook'), 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return { errors: errs, matchConditions };
}

function validateWebhookConfiguration(p: FieldPath, c: WebhookConfiguration): { errors: FieldError[]; programs: Program[] } {
  const errs: FieldError[] = [];
  if (c.timeoutMs === 0) errs.push(required(p.child('timeout')));
  else if (c.timeoutMs > MAX_TIMEOUT_MS || c.timeoutMs < 0) errs.push(invalid(p.child('timeout'), durationText(c.timeoutMs), 'must be > 0s and <= 30s'));
  if (c.authorizedTTLMs < 0) errs.push(invalid(p.child('authorizedTTL'), durationText(c.authorizedTTLMs), 'must be > 0s'));
  if (c.unauthorizedTTLMs < 0) errs.push(invalid(p.child('unauthorizedTTL'), durationText(c.unauthorizedTTLMs), 'must be > 0s'));
  if (c.subjectAccessReviewVersion === '') errs.push(required(p.child('subjectAccessReviewVersion')));
  else if (c.subjectAccessReviewVersion !== 'v1' && c.subjectAccessReviewVersion !== 'v1beta1') {
    errs.push(notSupported(p.child('subjectAccessReviewVersion'), c.subjectAccessReviewVersion, ['v1', 'v1beta1']));
  }
  if (c.matchConditionSubjectAccessReviewVersion === '') {
    if (c.matchConditions.length > 0) errs.push(required(p.child('matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'));
  } else if (c.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errs.push(notSupported(p.child('matchConditionSubjectAccessReviewVersion'), c.matchConditionSubjectAccessReviewVersion, ['v1']));
  }
  if (c.failurePolicy === '') errs.push(required(p.child('failurePolicy')));
  else if (c.failurePolicy !== 'NoOpinion' && c.failurePolicy !== 'Deny') errs.push(notSupported(p.child('failurePolicy'), c.failurePolicy, ['NoOpinion', 'Deny']));
  const ci = c.connectionInfo;
  const kcf = p.child('connectionInfo', 'kubeConfigFile');
  if (ci.type === '') errs.push(required(p.child('connectionInfo', 'type')));
  else if (ci.type === 'InClusterConfig') {
    if (ci.kubeConfigFile !== undefined) errs.push(invalid(kcf, ci.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
  } else if (ci.type === 'KubeConfigFile') {
    const f = ci.kubeConfigFile ?? '';
    if (f === '') errs.push(required(kcf));
    else if (!isAbsolute(f)) errs.push(invalid(kcf, f, 'must be an absolute path'));
    else {
      try {
        if (!statSync(f).isFile()) errs.push(invalid(kcf, f, 'must be a regular file'));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        errs.push(invalid(kcf, f, `error loading file: stat ${f}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`));
      }
    }
  } else {
    // kube prints the whole connectionInfo struct here (%v of a Go struct).
    errs.push(notSupported(p.child('connectionInfo', 'type'), `{${ci.type} ${ci.kubeConfigFile === undefined ? '<nil>' : ci.kubeConfigFile}}`, ['InClusterConfig', 'KubeConfigFile']));
  }
  const programs: Program[] = [];
  if (c.matchConditions.length > MAX_MATCH_CONDITIONS) {
    errs.push(tooMany(p.child('matchConditions'), c.matchConditions.length, MAX_MATCH_CONDITIONS));
    return { errors: errs, programs };
  }
  const seen = new Set<string>();
  c.matchConditions.forEach((m, j) => {
    const ep = p.child('matchConditions').index(j).child('expression');
    if (m.expression.trim() === '') { errs.push(required(ep)); return; }
    if (seen.has(m.expression)) { errs.push(duplicate(ep, m.expression)); return; }
    seen.add(m.expression);
    const r = compileMatchCondition(m.expression);
    if (r.error !== undefined) errs.push(invalid(ep, m.expression, r.error));
    else programs.push(r.program);
  });
  return { errors: errs, programs };
}
