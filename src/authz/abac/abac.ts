// --authorization-mode ABAC: attribute-based policies from --authorization-policy-file, one JSON
// object per line (blank lines and `#` comments skipped): abac.authorization.kubernetes.io/v1beta1
// Policy objects, or unversioned (v0) ones converted as kube converts them. A request is allowed
// when any policy matches its user or group, its verb (readonly policies allow get, list and watch
// only) and its namespace, resource and API group, or its non-resource path (`*` and prefix `/x*`
// wildcards); otherwise ABAC has no opinion ("No policy matched.").
// Counterpart of pkg/auth/authorizer/abac/abac.go and the conversions of pkg/apis/abac/v0 and v1beta1.
import { readFileSync } from 'node:fs';
import { decodeStrictJSON, jsonSyntaxError, type Shape } from '../../apimachinery/fieldvalidation/index.ts';
import { goPathError, goQuote } from '../../apimachinery/goformat/index.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { Attributes, AuthorizationResult, Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RuleResolver, RulesResult } from '../authorizer.ts';

/** The internal abac.PolicySpec every version converts to. */
export interface PolicySpec {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

const GROUP = 'abac.authorization.kubernetes.io';
const ALL_AUTHENTICATED = 'system:authenticated';

const str: Shape = { kind: 'scalar', goName: 'string', json: 'string' };
const bool: Shape = { kind: 'scalar', goName: 'bool', json: 'boolean' };
const struct = (goName: string, fields: Readonly<Record<string, Shape>>): Shape =>
  ({ kind: 'struct', goName, preserveUnknown: false, fields: (n) => fields[n] });
const V0_SHAPE = struct('Policy', { apiVersion: str, kind: str, user: str, group: str, readonly: bool, resource: str, namespace: str });
const V1BETA1_SHAPE = struct('Policy', {
  apiVersion: str, kind: str,
  spec: struct('PolicySpec', { user: str, group: str, readonly: bool, apiGroup: str, resource: str, namespace: str, nonResourcePath: str }),
});

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (o: Obj, k: string): string => (typeof o[k] === 'string' ? o[k] : '');

/** v0's conversion: no subject or `*` means every authenticated user; no namespace or resource means all (and every path). */
function fromV0(p: Obj): PolicySpec {
  let user = s(p, 'user');
  let group = s(p, 'group');
  if (user === '' && group === '') group = ALL_AUTHENTICATED;
  if (user === '*' || group === '*') { group = ALL_AUTHENTICATED; user = ''; }
  const namespace = s(p, 'namespace');
  const resource = s(p, 'resource');
  return {
    user, group, readonly: p['readonly'] === true, apiGroup: '*',
    namespace: namespace === '' ? '*' : namespace, resource: resource === '' ? '*' : resource,
    nonResourcePath: namespace === '' && resource === '' ? '*' : '',
  };
}

/** v1beta1's conversion: a `*` subject means every authenticated user. */
function fromV1beta1(spec: Obj): PolicySpec {
  const wildcard = s(spec, 'user') === '*' || s(spec, 'group') === '*';
  return {
    user: wildcard ? '' : s(spec, 'user'), group: wildcard ? ALL_AUTHENTICATED : s(spec, 'group'), readonly: spec['readonly'] === true,
    apiGroup: s(spec, 'apiGroup'), resource: s(spec, 'resource'), namespace: s(spec, 'namespace'), nonResourcePath: s(spec, 'nonResourcePath'),
  };
}

/** Decodes one line as kube's universal decoder does (non-strict); throws with the decoder's message. */
function decodeLine(line: string): PolicySpec {
  const syntax = jsonSyntaxError(line);
  if (syntax !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${syntax}`);
  const value: unknown = JSON.parse(line);
  const head = isObj(value) ? value : {};
  const apiVersion = s(head, 'apiVersion');
  const kind = s(head, 'kind');
  const decode = (shape: Shape): Obj => {
    const r = decodeStrictJSON(line, shape, false);
    if (r.typeError !== undefined) throw new Error(r.typeError);
    return isObj(r.value) ? r.value : {};
  };
  // A line without apiVersion or kind is an unversioned (v0) policy.
  if (apiVersion === '' || kind === '') return fromV0(decode(V0_SHAPE));
  const version = apiVersion.startsWith(`${GROUP}/`) ? apiVersion.slice(GROUP.length + 1) : '';
  if (kind !== 'Policy' || (version !== 'v0' && version !== 'v1beta1')) {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  if (version === 'v0') return fromV0(decode(V0_SHAPE));
  const p = decode(V1BETA1_SHAPE);
  return fromV1beta1(isObj(p['spec']) ? p['spec'] : {});
}

/** NewFromFile: the policies of `path`; throws kube's policyLoadError text for the first bad line. */
export function loadABACPolicyFile(path: string): PolicySpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(goPathError('open', path, err));
  }
  const policies: PolicySpec[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      policies.push(decodeLine(line));
    } catch (err) {
      throw new Error(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(err as Error).message}`);
    }
  }
  return policies;
}

function subjectMatches(p: PolicySpec, user: UserInfo | undefined): boolean {
  if (user === undefined) return false;
  let matched = false;
  if (p.user !== '') {
    if (p.user !== '*' && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group !== '') {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

const isReadOnly = (verb: string): boolean => verb === 'get' || verb === 'list' || verb === 'watch';

function matches(p: PolicySpec, a: Attributes): boolean {
  if (!subjectMatches(p, a.user) || (p.readonly && !isReadOnly(a.verb))) return false;
  if (a.resourceRequest) {
    return (p.namespace === '*' || p.namespace === a.namespace) && (p.resource === '*' || p.resource === a.resource)
      && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
  }
  return p.nonResourcePath === '*' || p.nonResourcePath === a.path
    || (p.nonResourcePath.endsWith('*') && a.path.startsWith(p.nonResourcePath.replace(/\*+$/, '')));
}

const verbsOf = (readonly: boolean): string[] => (readonly ? ['get', 'list', 'watch'] : ['*']);

/** The ABAC authorizer and rule resolver over `policies`. */
export function newABACAuthorizer(policies: readonly PolicySpec[]): Authorizer & RuleResolver {
  const noMatch: AuthorizationResult = { decision: 'NoOpinion', reason: 'No policy matched.' };
  const allow: AuthorizationResult = { decision: 'Allow', reason: '' };
  return {
    authorize: (a) => Promise.resolve(policies.some((p) => matches(p, a)) ? allow : noMatch),
    rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      for (const p of policies) {
        if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
        if (p.resource !== '') resourceRules.push({ verbs: verbsOf(p.readonly), apiGroups: [p.apiGroup], resources: [p.resource], resourceNames: [] });
        if (p.nonResourcePath !== '') nonResourceRules.push({ verbs: verbsOf(p.readonly), nonResourceURLs: [p.nonResourcePath] });
      }
      return Promise.resolve({ resourceRules, nonResourceRules, incomplete: false });
    },
  };
}
