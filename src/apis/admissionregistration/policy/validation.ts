// ValidatingAdmissionPolicy and MutatingAdmissionPolicy spec validation
// (validateValidatingAdmissionPolicySpec, validateMutatingAdmissionPolicySpec): structure, names and
// enums; the CEL expressions (match conditions, variables, validations, mutations) compiled as the
// admission plugins compile them, errors in kube's words.
// Counterpart of pkg/apis/admissionregistration/validation/validation.go.
import { duplicate, fieldPath, internalError, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { policyExpressionProblems, type ExpressionProblem, type PolicyExpressionProblems } from '../../../admission/policy/validating/compile.ts';
import { mutationProblems } from '../../../admission/policy/mutating/compile.ts';
import type { MutatingAdmissionPolicy, ValidatingAdmissionPolicySpec } from '../../../generated/types/admissionregistrationv1.gen.ts';
import { nameIsDNSSubdomain, validateLabelName, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateMatchConditions } from '../match-conditions.ts';
import { validateMatchResources, validateMutatingOperations } from '../rules.ts';
import type { AdmissionPolicy } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
export type PolicyKind = 'Validating' | 'Mutating';
type Spec = NonNullable<AdmissionPolicy['spec']>;

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

const blank = (s: string | undefined): boolean => (s ?? '').trim() === '';
const isCELIdentifier = (name: string): boolean => /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);

/** validateParamKind: apiVersion parsed as group/version with APIService's rules, kind a DNS-1035 label in any case. */
function validateParamKind(pk: RO<NonNullable<Spec['paramKind']>>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const av = pk.apiVersion ?? '';
  const ap = p.child('apiVersion');
  if (av === '') errs.push(required(ap, ''));
  else if (av.split('/').length > 2) errs.push(invalid(ap, av, `unexpected GroupVersion string: ${av}`));
  else {
    const [group, version] = av === '/' ? ['', ''] : av.includes('/') ? av.split('/') as [string, string] : ['', av];
    if (group !== '') { const m = isDNS1123Subdomain(group); if (m.length > 0) errs.push(invalid(ap, group, m.join(','))); }
    if (version === '') errs.push(invalid(ap, av, 'version must be specified'));
    else { const m = isDNS1035Label(version); if (m.length > 0) errs.push(invalid(ap, version, m.join(','))); }
  }
  const kind = pk.kind ?? '';
  if (kind === '') errs.push(required(p.child('kind'), ''));
  else {
    const m = isDNS1035Label(kind.toLowerCase());
    if (m.length > 0) errs.push(invalid(p.child('kind'), kind, `may have mixed case, but should otherwise match: ${m.join(',')}`));
  }
  return errs;
}

/** convertCELErrorToValidationError. */
export function celFieldError(p: FieldPath, expression: string, e: ExpressionProblem): FieldError {
  return e.type === 'required' ? required(p, e.detail) : e.type === 'invalid' ? invalid(p, expression, e.detail) : internalError(p, e.detail);
}

const celErrors = (p: FieldPath, expression: string | undefined, e: ExpressionProblem | undefined): FieldError[] =>
  (e === undefined ? [] : [celFieldError(p, expression ?? '', e)]);

function validateVariable(v: RO<NonNullable<Spec['variables']>[number]>, p: FieldPath, compiled?: ExpressionProblem): FieldError[] {
  const errs: FieldError[] = [];
  const name = v.name ?? '';
  if (blank(name)) errs.push(required(p.child('name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errs.push(invalid(p.child('name'), name, 'must be a valid CEL identifier'));
  if (blank(v.expression)) errs.push(required(p.child('expression'), 'expression is not specified'));
  else errs.push(...celErrors(p.child('expression'), v.expression, compiled));
  return errs;
}

function validateValidation(v: RO<NonNullable<Spec['validations']>[number]>, p: FieldPath,
  compiled?: PolicyExpressionProblems['validations'][number]): FieldError[] {
  const errs: FieldError[] = [];
  if (blank(v.expression)) errs.push(required(p.child('expression'), 'expression is not specified'));
  else errs.push(...celErrors(p.child('expression'), v.expression, compiled?.expression));
  const me = v.messageExpression ?? '';
  if (me !== '' && blank(me)) errs.push(invalid(p.child('messageExpression'), me, 'must be non-empty if specified'));
  else errs.push(...celErrors(p.child('messageExpression'), me, compiled?.messageExpression));
  const msg = v.message ?? '';
  if (msg !== '' && blank(msg)) errs.push(invalid(p.child('message'), msg, 'must be non-empty if specified'));
  else if (/[\n\r]/.test(msg.trim())) errs.push(invalid(p.child('message'), msg, 'must not contain line breaks'));
  if (v.reason !== undefined && !VALIDATION_REASONS.includes(v.reason)) errs.push(notSupported(p.child('reason'), v.reason, VALIDATION_REASONS));
  return errs;
}

function validateAuditAnnotations(policyName: string, list: RO<NonNullable<Spec['auditAnnotations']>>, p: FieldPath,
  compiled?: PolicyExpressionProblems['auditAnnotations']): FieldError[] {
  const errs: FieldError[] = [];
  if (list.length > MAX_AUDIT_ANNOTATIONS) {
    // kube prints its internal type, whose fields carry no JSON names
    const shown = list.map((a) => ({ Key: a.key ?? '', ValueExpression: a.valueExpression ?? '' }));
    errs.push(invalid(p, shown, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  list.forEach((a, i) => {
    const ap = p.index(i);
    const key = a.key ?? '';
    // the key becomes "<policy name>/<key>" in the audit event, which must be a qualified name
    if (policyName !== '') errs.push(...validateLabelName(`${policyName}/${key}`, ap.child('key')));
    else errs.push(invalid(ap.child('key'), key, 'requires metadata.name be non-empty'));
    const value = (a.valueExpression ?? '').trim();
    if (value === '') errs.push(required(ap.child('valueExpression'), 'valueExpression is not specified'));
    else if (Buffer.byteLength(value) > MAX_VALUE_EXPRESSION_BYTES) errs.push(required(ap.child('valueExpression'), `must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`));
    else errs.push(...celErrors(ap.child('valueExpression'), a.valueExpression, compiled?.[i]));
    if (keys.has(key)) errs.push(duplicate(ap.child('key'), key));
    keys.add(key);
  });
  return errs;
}

function validateMutation(m: RO<NonNullable<Spec['mutations']>[number]>, p: FieldPath, compiled: ExpressionProblem | undefined): FieldError[] {
  const type = m.patchType ?? '';
  if (type === '') return [required(p.child('patchType'), '')];
  if (!PATCH_TYPES.includes(type)) return [notSupported(p.child('patchType'), type, PATCH_TYPES)];
  const [own, other] = type === 'JSONPatch' ? ['jsonPatch', 'applyConfiguration'] as const : ['applyConfiguration', 'jsonPatch'] as const;
  const errs: FieldError[] = [];
  const body = m[own];
  if (body === undefined) errs.push(required(p.child(own), `must be specified when patchType is ${type}`));
  else if (blank(body.expression)) errs.push(required(p.child(own, 'expression'), ''));
  else errs.push(...celErrors(p.child(own, 'expression'), body.expression?.trim(), compiled));
  if (m[other] !== undefined) errs.push(invalid(p.child(other), `{${other}}`, `must not be specified when patchType is ${type}`));
  return errs;
}

export interface PolicyValidationOptions {
  /** An update that keeps paramKind and the match conditions does not check the conditions again. */
  readonly ignoreMatchConditions: boolean;
}

export function validatePolicy(kind: PolicyKind, pol: RO<AdmissionPolicy>, opts: PolicyValidationOptions): FieldError[] {
  const errs = validateObjectMeta(pol.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = pol.spec ?? {};
  const p = fieldPath('spec');
  if (spec.failurePolicy === undefined) errs.push(required(p.child('failurePolicy'), ''));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) errs.push(notSupported(p.child('failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind !== undefined) errs.push(...validateParamKind(spec.paramKind, p.child('paramKind')));
  const mc = spec.matchConstraints;
  if (mc === undefined) errs.push(required(p.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(mc, p.child('matchConstraints')));
    if ((mc.resourceRules ?? []).length === 0) errs.push(required(p.child('matchConstraints', 'resourceRules'), ''));
    if (kind === 'Mutating') errs.push(...validateMutatingOperations(mc, p.child('matchConstraints')));
  }
  // Match conditions and variables compile alike for both kinds (a mutating policy has no validations).
  const compiled = policyExpressionProblems(spec as ValidatingAdmissionPolicySpec);
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(spec.matchConditions, p.child('matchConditions'), (i) => compiled?.matchConditions[i]));
  }
  (spec.variables ?? []).forEach((v, i) => errs.push(...validateVariable(v, p.child('variables').index(i), compiled?.variables[i])));
  if (kind === 'Validating') {
    const validations = spec.validations ?? [];
    const audit = spec.auditAnnotations ?? [];
    if (validations.length === 0 && audit.length === 0) {
      const why = 'validations or auditAnnotations must contain at least one item';
      errs.push(required(p.child('validations'), why), required(p.child('auditAnnotations'), why));
    } else {
      validations.forEach((v, i) => errs.push(...validateValidation(v, p.child('validations').index(i), compiled?.validations[i])));
      errs.push(...validateAuditAnnotations(pol.metadata?.name ?? '', audit, p.child('auditAnnotations'), compiled?.auditAnnotations));
    }
  } else {
    const mutations = spec.mutations ?? [];
    if (mutations.length === 0) errs.push(required(p.child('mutations'), 'mutations must contain at least one item'));
    const problems = mutations.length > 0 ? mutationProblems(pol as MutatingAdmissionPolicy) : [];
    mutations.forEach((m, i) => errs.push(...validateMutation(m, p.child('mutations').index(i), problems[i])));
    const rp = spec.reinvocationPolicy ?? '';
    if (rp === '') errs.push(required(p.child('reinvocationPolicy'), ''));
    else if (!REINVOCATION_POLICIES.includes(rp)) errs.push(notSupported(p.child('reinvocationPolicy'), rp, REINVOCATION_POLICIES));
  }
  return errs;
}
