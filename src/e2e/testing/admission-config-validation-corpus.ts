// The admissionregistration.k8s.io/v1 corpus: one case per rule of kube's
// pkg/apis/admissionregistration/validation (webhook configurations, admission policies and their
// bindings), each a valid object with one fault, plus valid objects that must be accepted. Every
// final request is a dry run, so no webhook or policy stays behind to intercept later requests.
// CEL compile errors are left to the CEL issue: every expression here compiles.
import type { RawRequest } from './https-client.ts';
import { patch, post, type ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const G = '/apis/admissionregistration.k8s.io/v1';
const DRY = '?dryRun=All';

const rule = (over: Obj = {}): Obj => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...over });
const hook = (over: Obj = {}): Obj => ({
  name: 'a.example.com', clientConfig: { url: 'https://example.com/hook' }, sideEffects: 'None',
  admissionReviewVersions: ['v1'], rules: [rule()], ...over,
});

type Kind = 'Validating' | 'Mutating';
const configPath = (k: Kind): string => `${G}/${k.toLowerCase()}webhookconfigurations`;
const config = (k: Kind, name: string, hooks: readonly Obj[]): Obj =>
  ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${k}WebhookConfiguration`, metadata: { name }, webhooks: hooks });

/** A webhook-configuration create of both kinds with one webhook built from `over`. */
const hookCases = (name: string, over: Obj | ((k: Kind) => Obj)): ValidationCase[] => (['Validating', 'Mutating'] as const).map((k) => ({
  name: `${k}WebhookConfiguration: ${name}`,
  requests: (n: string) => [post(`${configPath(k)}${DRY}`, config(k, n, [hook(typeof over === 'function' ? over(k) : over)]))],
}));
const hooksCase = (k: Kind, name: string, hooks: readonly Obj[]): ValidationCase =>
  ({ name: `${k}WebhookConfiguration: ${name}`, requests: (n) => [post(`${configPath(k)}${DRY}`, config(k, n, hooks))] });
/** Creates a valid configuration (from `stored`) and PUTs `next` over it. */
const hookUpdate = (k: Kind, name: string, stored: readonly Obj[], next: readonly Obj[]): ValidationCase => ({
  name: `${k}WebhookConfiguration update: ${name}`,
  requests: (n) => [post(configPath(k), config(k, n, stored)), patch(`${configPath(k)}/${n}${DRY}`, { webhooks: next })],
});

const WEBHOOK_CASES: readonly ValidationCase[] = [
  ...hookCases('valid (url)', {}),
  ...hookCases('valid (service, all fields)', {
    clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/a/b', port: 8443 } }, failurePolicy: 'Ignore', matchPolicy: 'Exact',
    timeoutSeconds: 30, namespaceSelector: { matchLabels: { a: 'b' } }, objectSelector: { matchExpressions: [{ key: 'x', operator: 'Exists' }] },
    admissionReviewVersions: ['v1', 'v1beta1'], matchConditions: [{ name: 'ok', expression: 'true' }],
  }),
  ...hookCases('name not fully qualified', { name: 'hook' }),
  ...hookCases('name not a DNS subdomain', { name: 'Bad_Name.example.com' }),
  ...hookCases('name empty', { name: '' }),
  ...hookCases('name with two segments', { name: 'example.com' }),
  ...hookCases('rule without operations', { rules: [rule({ operations: [] })] }),
  ...hookCases('rule operation Bogus', { rules: [rule({ operations: ['Bogus'] })] }),
  ...hookCases('rule operation * with others', { rules: [rule({ operations: ['*', 'CREATE'] })] }),
  ...hookCases('rule without apiGroups', { rules: [rule({ apiGroups: [] })] }),
  ...hookCases('rule apiGroups * with others', { rules: [rule({ apiGroups: ['*', 'apps'] })] }),
  ...hookCases('rule without apiVersions', { rules: [rule({ apiVersions: [] })] }),
  ...hookCases('rule apiVersions * with others', { rules: [rule({ apiVersions: ['*', 'v1'] })] }),
  ...hookCases('rule apiVersion empty', { rules: [rule({ apiVersions: [''] })] }),
  ...hookCases('rule without resources', { rules: [rule({ resources: [] })] }),
  ...hookCases('rule resource empty', { rules: [rule({ resources: [''] })] }),
  ...hookCases('rule resources */* with others', { rules: [rule({ resources: ['*/*', 'pods'] })] }),
  ...hookCases('rule resources * with a resource', { rules: [rule({ resources: ['*', 'pods'] })] }),
  ...hookCases('rule resources pods/* then pods/status', { rules: [rule({ resources: ['pods/*', 'pods/status'] })] }),
  ...hookCases('rule resources */status then pods/status', { rules: [rule({ resources: ['*/status', 'pods/status'] })] }),
  ...hookCases('rule resources * with subresources (valid)', { rules: [rule({ resources: ['*', 'pods/status'] })] }),
  ...hookCases('rule scope Bogus', { rules: [rule({ scope: 'Bogus' })] }),
  ...hookCases('failurePolicy Bogus', { failurePolicy: 'Bogus' }),
  ...hookCases('matchPolicy Bogus', { matchPolicy: 'Bogus' }),
  ...hookCases('sideEffects missing', { sideEffects: undefined }),
  ...hookCases('sideEffects Some', { sideEffects: 'Some' }),
  ...hookCases('sideEffects Bogus', { sideEffects: 'Bogus' }),
  ...hookCases('timeoutSeconds 0', { timeoutSeconds: 0 }),
  ...hookCases('timeoutSeconds 31', { timeoutSeconds: 31 }),
  ...hookCases('namespaceSelector operator Bogus', { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }),
  ...hookCases('namespaceSelector In without values', { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }),
  ...hookCases('namespaceSelector Exists with values', { namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }),
  ...hookCases('namespaceSelector label key invalid', { namespaceSelector: { matchLabels: { 'bad key': 'v' } } }),
  ...hookCases('objectSelector label value invalid', { objectSelector: { matchLabels: { a: 'bad value' } } }),
  ...hookCases('objectSelector expression value invalid', { objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] } }),
  ...hookCases('clientConfig empty', { clientConfig: {} }),
  ...hookCases('clientConfig url and service', { clientConfig: { url: 'https://example.com', service: { namespace: 'ns', name: 'svc' } } }),
  ...hookCases('url http', { clientConfig: { url: 'http://example.com/hook' } }),
  ...hookCases('url without host', { clientConfig: { url: 'https:///hook' } }),
  ...hookCases('url with user info', { clientConfig: { url: 'https://user:pw@example.com/hook' } }),
  ...hookCases('url with fragment', { clientConfig: { url: 'https://example.com/hook#frag' } }),
  ...hookCases('url with query', { clientConfig: { url: 'https://example.com/hook?a=b' } }),
  ...hookCases('url not a URL', { clientConfig: { url: '%zz' } }),
  ...hookCases('service without name and namespace', { clientConfig: { service: {} } }),
  ...hookCases('service port 0', { clientConfig: { service: { namespace: 'ns', name: 'svc', port: 0 } } }),
  ...hookCases('service port 70000', { clientConfig: { service: { namespace: 'ns', name: 'svc', port: 70000 } } }),
  ...hookCases('service path relative', { clientConfig: { service: { namespace: 'ns', name: 'svc', path: 'a/b' } } }),
  ...hookCases('service path empty segment', { clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/a//b' } } }),
  ...hookCases('service path bad segment', { clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/A_b' } } }),
  ...hookCases('service path trailing slash (valid)', { clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/a/' } } }),
  ...hookCases('admissionReviewVersions empty', { admissionReviewVersions: [] }),
  ...hookCases('admissionReviewVersions unknown only', { admissionReviewVersions: ['v9'] }),
  ...hookCases('admissionReviewVersions duplicate', { admissionReviewVersions: ['v1', 'v1'] }),
  ...hookCases('admissionReviewVersions not a DNS label', { admissionReviewVersions: ['v1', 'V_2'] }),
  ...hookCases('matchConditions name empty', { matchConditions: [{ name: '', expression: 'true' }] }),
  ...hookCases('matchConditions expression empty', { matchConditions: [{ name: 'a', expression: ' ' }] }),
  ...hookCases('matchConditions name not qualified', { matchConditions: [{ name: 'bad name!', expression: 'true' }] }),
  ...hookCases('matchConditions duplicate names', { matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'true' }] }),
  ...hookCases('matchConditions more than 64', { matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) }),
  ...hookCases('reinvocationPolicy Bogus', { reinvocationPolicy: 'Bogus' }),
  ...hookCases('two faults at once', (k) => ({ name: 'x', timeoutSeconds: 99, ...(k === 'Mutating' ? { reinvocationPolicy: 'Bogus' } : {}) })),
  hooksCase('Validating', 'duplicate webhook names', [hook(), hook()]),
  hooksCase('Mutating', 'duplicate webhook names', [hook(), hook()]),
  {
    name: 'ValidatingWebhookConfiguration: metadata name invalid',
    requests: () => [post(`${configPath('Validating')}${DRY}`, config('Validating', 'Bad_Name', [hook()]))],
  },
  hookUpdate('Validating', 'valid change', [hook()], [hook({ timeoutSeconds: 5 })]),
  hookUpdate('Mutating', 'valid change', [hook()], [hook({ reinvocationPolicy: 'IfNeeded' })]),
  hookUpdate('Validating', 'to sideEffects Some', [hook()], [hook({ sideEffects: 'Some' })]),
  hookUpdate('Validating', 'to duplicate names', [hook()], [hook(), hook()]),
  hookUpdate('Mutating', 'to admissionReviewVersions unknown', [hook()], [hook({ admissionReviewVersions: ['v9'] })]),
  hookUpdate('Validating', 'to timeout 0', [hook()], [hook({ timeoutSeconds: 0 })]),
];

// admission policies and bindings
const matchConstraints = (over: Obj = {}): Obj => ({ resourceRules: [rule()], ...over });
const vapSpec = (over: Obj = {}): Obj => ({ matchConstraints: matchConstraints(), validations: [{ expression: 'true' }], ...over });
const mapSpec = (over: Obj = {}): Obj => ({
  matchConstraints: matchConstraints(), reinvocationPolicy: 'Never',
  mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } }], ...over,
});
const policy = (k: Kind, name: string, spec: Obj): Obj =>
  ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${k}AdmissionPolicy`, metadata: { name }, spec });
const policyPath = (k: Kind): string => `${G}/${k.toLowerCase()}admissionpolicies`;
const vap = (name: string, over: Obj): ValidationCase =>
  ({ name: `ValidatingAdmissionPolicy: ${name}`, requests: (n) => [post(`${policyPath('Validating')}${DRY}`, policy('Validating', n, vapSpec(over)))] });
const map = (name: string, over: Obj): ValidationCase =>
  ({ name: `MutatingAdmissionPolicy: ${name}`, requests: (n) => [post(`${policyPath('Mutating')}${DRY}`, policy('Mutating', n, mapSpec(over)))] });
/** A case for both policy kinds, the fault merged over each kind's valid spec. */
const both = (name: string, over: Obj): ValidationCase[] => [vap(name, over), map(name, over)];

const JSON_PATCH = '[JSONPatch{op: "add", path: "/metadata/labels/a", value: "b"}]';

const POLICY_CASES: ValidationCase[] = [
  vap('valid', {}),
  map('valid', {}),
  vap('valid with everything', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, failurePolicy: 'Ignore', variables: [{ name: 'x', expression: '1' }],
    matchConditions: [{ name: 'm', expression: 'true' }], auditAnnotations: [{ key: 'k', valueExpression: '"v"' }],
    matchConstraints: matchConstraints({ matchPolicy: 'Exact', namespaceSelector: {}, objectSelector: {}, excludeResourceRules: [rule({ resourceNames: ['a'] })] }),
    validations: [{ expression: 'true', message: 'm', reason: 'Forbidden', messageExpression: '"m"' }],
  }),
  map('mutation JSONPatch valid', { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: JSON_PATCH } }] }),
  ...both('failurePolicy Bogus', { failurePolicy: 'Bogus' }),
  ...both('paramKind empty', { paramKind: {} }),
  ...both('paramKind apiVersion with two slashes', { paramKind: { apiVersion: 'a/b/c', kind: 'K' } }),
  ...both('paramKind apiVersion group invalid', { paramKind: { apiVersion: 'Bad_Group/v1', kind: 'K' } }),
  ...both('paramKind apiVersion without version', { paramKind: { apiVersion: 'example.com/', kind: 'K' } }),
  ...both('paramKind apiVersion version invalid', { paramKind: { apiVersion: 'example.com/V_1', kind: 'K' } }),
  ...both('paramKind kind invalid', { paramKind: { apiVersion: 'v1', kind: 'Bad_Kind' } }),
  ...both('matchConstraints missing', { matchConstraints: undefined }),
  ...both('matchConstraints without resourceRules', { matchConstraints: {} }),
  ...both('matchConstraints matchPolicy Bogus', { matchConstraints: matchConstraints({ matchPolicy: 'Bogus' }) }),
  ...both('matchConstraints namespaceSelector invalid', { matchConstraints: matchConstraints({ namespaceSelector: { matchLabels: { a: 'bad value' } } }) }),
  ...both('matchConstraints objectSelector invalid', { matchConstraints: matchConstraints({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } }) }),
  ...both('resourceRules operation Bogus', { matchConstraints: matchConstraints({ resourceRules: [rule({ operations: ['Bogus'] })] }) }),
  ...both('resourceRules operation DELETE', { matchConstraints: matchConstraints({ resourceRules: [rule({ operations: ['DELETE'] })] }) }),
  ...both('resourceRules without apiGroups', { matchConstraints: matchConstraints({ resourceRules: [rule({ apiGroups: [] })] }) }),
  ...both('resourceRules resources */* with others', { matchConstraints: matchConstraints({ resourceRules: [rule({ resources: ['*/*', 'pods'] })] }) }),
  ...both('resourceRules resourceName invalid', { matchConstraints: matchConstraints({ resourceRules: [rule({ resourceNames: ['a/b'] })] }) }),
  ...both('resourceRules resourceName duplicate', { matchConstraints: matchConstraints({ resourceRules: [rule({ resourceNames: ['a', 'a'] })] }) }),
  ...both('excludeResourceRules scope Bogus', { matchConstraints: matchConstraints({ excludeResourceRules: [rule({ scope: 'Bogus' })] }) }),
  ...both('matchConditions name empty', { matchConditions: [{ name: '', expression: 'true' }] }),
  ...both('matchConditions duplicate names', { matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'true' }] }),
  ...both('matchConditions name not qualified', { matchConditions: [{ name: 'bad name!', expression: 'true' }] }),
  ...both('variable name empty', { variables: [{ name: '', expression: '1' }] }),
  ...both('variable name not a CEL identifier', { variables: [{ name: '1x', expression: '1' }] }),
  ...both('variable name reserved', { variables: [{ name: 'in', expression: '1' }] }),
  ...both('variable expression empty', { variables: [{ name: 'x', expression: ' ' }] }),
  vap('no validations and no auditAnnotations', { validations: [] }),
  vap('validation expression empty', { validations: [{ expression: ' ' }] }),
  vap('validation message blank', { validations: [{ expression: 'true', message: ' ' }] }),
  vap('validation message with line break', { validations: [{ expression: 'true', message: 'a\nb' }] }),
  vap('validation messageExpression blank', { validations: [{ expression: 'true', messageExpression: ' ' }] }),
  vap('validation reason Bogus', { validations: [{ expression: 'true', reason: 'Bogus' }] }),
  vap('auditAnnotation key invalid', { auditAnnotations: [{ key: 'bad key', valueExpression: '"v"' }] }),
  vap('auditAnnotation valueExpression empty', { auditAnnotations: [{ key: 'k', valueExpression: '' }] }),
  vap('auditAnnotation key too long', { auditAnnotations: [{ key: 'k'.repeat(64), valueExpression: '"v"' }] }),
  vap('auditAnnotation valueExpression over 5 KiB', { auditAnnotations: [{ key: 'k', valueExpression: `"${'v'.repeat(5200)}"` }] }),
  vap('auditAnnotations only (valid)', { validations: [], auditAnnotations: [{ key: 'k', valueExpression: '"v"' }] }),
  vap('validation message and reason (valid)', { validations: [{ expression: 'true', message: ' padded ', reason: 'Invalid' }] }),
  ...both('paramKind apiVersion a slash only', { paramKind: { apiVersion: '/', kind: 'K' } }),
  ...both('resourceRules subresource wildcards (valid)', { matchConstraints: matchConstraints({ resourceRules: [rule({ resources: ['pods/*', '*/status'] })] }) }),
  vap('auditAnnotation duplicate keys', { auditAnnotations: [{ key: 'k', valueExpression: '"v"' }, { key: 'k', valueExpression: '"w"' }] }),
  vap('more than 20 auditAnnotations', { auditAnnotations: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: '"v"' })) }),
  map('no mutations', { mutations: [] }),
  map('mutation patchType empty', { mutations: [{ patchType: '' }] }),
  map('mutation patchType Bogus', { mutations: [{ patchType: 'Bogus' }] }),
  map('mutation JSONPatch without jsonPatch', { mutations: [{ patchType: 'JSONPatch' }] }),
  map('mutation JSONPatch with applyConfiguration', { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: JSON_PATCH }, applyConfiguration: { expression: 'Object{}' } }] }),
  map('mutation ApplyConfiguration without applyConfiguration', { mutations: [{ patchType: 'ApplyConfiguration' }] }),
  map('mutation ApplyConfiguration with jsonPatch', { mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' }, jsonPatch: { expression: JSON_PATCH } }] }),
  map('applyConfiguration expression empty', { mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: '' } }] }),
  map('jsonPatch expression empty', { mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: ' ' } }] }),
  map('reinvocationPolicy missing', { reinvocationPolicy: undefined }),
  map('reinvocationPolicy Bogus', { reinvocationPolicy: 'Bogus' }),
  {
    name: 'MutatingAdmissionPolicy v1beta1: reinvocationPolicy missing',
    requests: (n) => [post(`/apis/admissionregistration.k8s.io/v1beta1/mutatingadmissionpolicies${DRY}`,
      { ...policy('Mutating', n, mapSpec({ reinvocationPolicy: undefined })), apiVersion: 'admissionregistration.k8s.io/v1beta1' })],
  },
  {
    name: 'ValidatingAdmissionPolicy update: matchConstraints removed',
    requests: (n) => [post(policyPath('Validating'), policy('Validating', n, vapSpec())), patch(`${policyPath('Validating')}/${n}${DRY}`, { spec: { matchConstraints: null } })],
  },
  {
    name: 'MutatingAdmissionPolicy update: reinvocationPolicy Bogus',
    requests: (n) => [post(policyPath('Mutating'), policy('Mutating', n, mapSpec())), patch(`${policyPath('Mutating')}/${n}${DRY}`, { spec: { reinvocationPolicy: 'Bogus' } })],
  },
  ...statusCases(),
];

function statusCases(): ValidationCase[] {
  const status = (name: string, st: Obj): ValidationCase => ({
    name: `ValidatingAdmissionPolicy status: ${name}`,
    requests: (n): RawRequest[] => [
      post(policyPath('Validating'), policy('Validating', n, vapSpec())),
      patch(`${policyPath('Validating')}/${n}/status${DRY}`, { status: st }),
    ],
  });
  const c = (over: Obj = {}): Obj => ({ type: 'Ready', status: 'True', reason: 'R', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z', ...over });
  return [
    status('valid', { conditions: [c()], typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] } }),
    status('warning empty', { typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: '' }] } }),
    status('fieldRef empty', { typeChecking: { expressionWarnings: [{ fieldRef: '', warning: 'w' }] } }),
    // each fieldRef must parse as the JSONPath "{<fieldRef>}" (client-go's parser, trimmed first)
    ...[' spec.a ', '.spec[', '.spec[?(@.a', '.spec[?(@.a==1)', '#', '.a[x]', '.a[1:2:3]', '.a[-]', "'abc", "'a\\q'", '1.2.3', '....',
      '.a[1,2]', ".a['b']", '.a{', '.a}x', '.a[*]', '+', '"a\\\'b"', '.a[99999999999999999999]', '.a[?(@.x=="a")]', 'a b', '.a[?(#)]', '.a[1,#]', '\t']
      .map((ref) => status(`fieldRef ${JSON.stringify(ref)}`, { typeChecking: { expressionWarnings: [{ fieldRef: ref, warning: 'w' }] } })),
    status('condition status Bogus', { conditions: [c({ status: 'Bogus' })] }),
    status('condition reason invalid', { conditions: [c({ reason: 'bad reason' })] }),
    status('condition duplicate type', { conditions: [c(), c()] }),
  ];
}

const binding = (k: Kind, name: string, spec: Obj): Obj =>
  ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${k}AdmissionPolicyBinding`, metadata: { name }, spec });
const bindingPath = (k: Kind): string => `${G}/${k.toLowerCase()}admissionpolicybindings`;
const bindingSpec = (k: Kind, over: Obj): Obj => ({ policyName: 'p', ...(k === 'Validating' ? { validationActions: ['Deny'] } : {}), ...over });
const bindingCases = (name: string, over: Obj | ((k: Kind) => Obj), kinds: readonly Kind[] = ['Validating', 'Mutating']): ValidationCase[] => kinds.map((k) => ({
  name: `${k}AdmissionPolicyBinding: ${name}`,
  requests: (n: string) => [post(`${bindingPath(k)}${DRY}`, binding(k, n, bindingSpec(k, typeof over === 'function' ? over(k) : over)))],
}));
const ref = (over: Obj): Obj => ({ paramRef: { parameterNotFoundAction: 'Deny', ...over } });

const BINDING_CASES: ValidationCase[] = [
  ...bindingCases('valid', {}),
  ...bindingCases('valid with everything', {
    paramRef: { name: 'cm', namespace: 'ns', parameterNotFoundAction: 'Allow' },
    matchResources: { namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent', resourceRules: [rule({ resourceNames: ['x'] })] },
  }),
  ...bindingCases('policyName empty', { policyName: '' }),
  ...bindingCases('policyName invalid', { policyName: 'Bad_Name' }),
  ...bindingCases('paramRef name and selector', ref({ name: 'a', selector: {} })),
  ...bindingCases('paramRef neither name nor selector', ref({})),
  ...bindingCases('paramRef name invalid', ref({ name: 'a/b' })),
  ...bindingCases('paramRef selector invalid', ref({ selector: { matchLabels: { 'bad key': 'v' } } })),
  ...bindingCases('paramRef parameterNotFoundAction missing', { paramRef: { name: 'a' } }),
  ...bindingCases('paramRef parameterNotFoundAction Bogus', ref({ name: 'a', parameterNotFoundAction: 'Bogus' })),
  ...bindingCases('matchResources matchPolicy Bogus', { matchResources: { matchPolicy: 'Bogus' } }),
  ...bindingCases('matchResources rule operation Bogus', { matchResources: { resourceRules: [rule({ operations: ['Bogus'] })] } }),
  ...bindingCases('matchResources rule operation DELETE', { matchResources: { resourceRules: [rule({ operations: ['DELETE'] })] } }),
  ...bindingCases('matchResources resourceName duplicate', { matchResources: { resourceRules: [rule({ resourceNames: ['a', 'a'] })] } }),
  ...bindingCases('paramRef selector (valid)', ref({ selector: { matchLabels: { a: 'b' } } })),
  ...bindingCases('validationActions missing', { validationActions: undefined }, ['Validating']),
  ...bindingCases('validationActions Warn and Audit (valid)', { validationActions: ['Warn', 'Audit'] }, ['Validating']),
  ...bindingCases('validationActions empty', { validationActions: [] }, ['Validating']),
  ...bindingCases('validationActions Bogus', { validationActions: ['Bogus'] }, ['Validating']),
  ...bindingCases('validationActions duplicate', { validationActions: ['Audit', 'Audit'] }, ['Validating']),
  ...bindingCases('validationActions Deny and Warn', { validationActions: ['Deny', 'Warn'] }, ['Validating']),
  {
    name: 'ValidatingAdmissionPolicyBinding update: policyName cleared',
    requests: (n) => [
      post(bindingPath('Validating'), binding('Validating', n, bindingSpec('Validating', {}))),
      patch(`${bindingPath('Validating')}/${n}${DRY}`, { spec: { policyName: '' } }),
    ],
  },
];

export const ADMISSION_CONFIG_CASES: readonly ValidationCase[] = [...WEBHOOK_CASES, ...POLICY_CASES, ...BINDING_CASES];
