// The audit policy: loading and validating an audit.k8s.io/v1 Policy file, and the rule checker
// that gives each request its level, omitted stages and omitManagedFields (first matching rule;
// none: level None).
// Counterpart of k8s.io/apiserver/pkg/audit/policy (reader.go, checker.go) and
// k8s.io/apiserver/pkg/apis/audit/validation.
import { readFile } from 'node:fs/promises';
import { parse as parseYAML } from 'yaml';
import type { UserInfo } from '../apimachinery/request/context.ts';
import { LEVELS, STAGES, type GroupResources, type Level, type Policy, type PolicyRule, type RequestAuditConfig, type Stage } from './types.ts';

/** What a rule is matched against: authorizer attributes of the request (user absent before authentication). */
export interface AuditAttributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

const quote = (s: string): string => JSON.stringify(s);

function validateStages(stages: unknown, path: string, errs: string[]): void {
  if (stages === undefined || stages === null) return;
  if (!Array.isArray(stages)) { errs.push(`${path}: Invalid value: must be a list of stages`); return; }
  stages.forEach((s, i) => {
    if (!STAGES.includes(s as Stage)) errs.push(`${path}[${i}]: Invalid value: ${quote(String(s))}: allowed stages are ${STAGES.map(quote).join(',')}`);
  });
}

function validateRule(r: Record<string, unknown>, path: string, errs: string[]): void {
  const level = r['level'];
  if (level === undefined || level === '') errs.push(`${path}.level: Required value`);
  else if (!LEVELS.includes(level as Level)) errs.push(`${path}.level: Unsupported value: ${quote(String(level))}: supported values: ${LEVELS.map(quote).join(', ')}`);
  const urls = (r['nonResourceURLs'] ?? []) as unknown[];
  const resources = (r['resources'] ?? []) as unknown[];
  const namespaces = (r['namespaces'] ?? []) as unknown[];
  if (urls.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    errs.push(`${path}.nonResourceURLs: Invalid value: ${quote(`[${urls.join(' ')}]`)}: rules cannot apply to both regular resources and non-resource URLs`);
  }
  urls.forEach((u, i) => {
    const s = String(u);
    if (s === '*') return;
    if (!s.startsWith('/')) errs.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${quote(s)}: non-resource URL rules must begin with a '/' character`);
    if (s.slice(0, -1).includes('*')) errs.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${quote(s)}: non-resource URL wildcards '*' must be the final character of the rule`);
  });
  resources.forEach((g, i) => {
    const gr = (g ?? {}) as GroupResources;
    if ((gr.resourceNames ?? []).length > 0 && (gr.resources ?? []).some((x) => x === '*' || x.startsWith('*/') || x.endsWith('/*'))) {
      // kube: resourceNames cannot go with a wildcard (it names objects of one resource).
      errs.push(`${path}.resources[${i}].resourceNames: Invalid value: ${quote(`[${(gr.resourceNames ?? []).join(' ')}]`)}: using resourceNames requires at least one resource`);
    }
  });
  validateStages(r['omitStages'], `${path}.omitStages`, errs);
}

/**
 * Parses a policy document (YAML or JSON). Throws an Error with kube's kind of message: the
 * document must be audit.k8s.io/v1 Policy with at least one rule, each valid.
 */
export function parsePolicy(text: string): Policy {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('failed decoding: Object \'Kind\' is missing');
  const o = doc as Record<string, unknown>;
  if (o['kind'] !== 'Policy' || o['apiVersion'] !== 'audit.k8s.io/v1') {
    const [g, v] = String(o['apiVersion'] ?? '').includes('/') ? String(o['apiVersion']).split('/') : ['', String(o['apiVersion'] ?? '')];
    throw new Error(`unknown group version field ${g}/${v}, Kind=${String(o['kind'] ?? '')} in policy`);
  }
  const errs: string[] = [];
  const rules = (o['rules'] ?? []) as Record<string, unknown>[];
  if (!Array.isArray(rules)) throw new Error('failed decoding: rules must be a list');
  rules.forEach((r, i) => { validateRule(r ?? {}, `rules[${i}]`, errs); });
  validateStages(o['omitStages'], 'omitStages', errs);
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  if (rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return {
    rules: rules.map(toRule),
    ...(o['omitStages'] != null ? { omitStages: o['omitStages'] as Stage[] } : {}),
    ...(typeof o['omitManagedFields'] === 'boolean' ? { omitManagedFields: o['omitManagedFields'] } : {}),
  };
}

/** A validated rule, typed; absent (and null) lists stay absent. */
function toRule(r: Record<string, unknown>): PolicyRule {
  const list = (k: string): readonly string[] | undefined => (Array.isArray(r[k]) ? (r[k] as unknown[]).map(String) : undefined);
  const out: { -readonly [K in keyof PolicyRule]: PolicyRule[K] } = { level: r['level'] as Level };
  const users = list('users'); if (users !== undefined) out.users = users;
  const groups = list('userGroups'); if (groups !== undefined) out.userGroups = groups;
  const verbs = list('verbs'); if (verbs !== undefined) out.verbs = verbs;
  const namespaces = list('namespaces'); if (namespaces !== undefined) out.namespaces = namespaces;
  const urls = list('nonResourceURLs'); if (urls !== undefined) out.nonResourceURLs = urls;
  if (Array.isArray(r['resources'])) out.resources = (r['resources'] as (GroupResources | null)[]).map((g) => g ?? {});
  const stages = list('omitStages'); if (stages !== undefined) out.omitStages = stages as Stage[];
  if (typeof r['omitManagedFields'] === 'boolean') out.omitManagedFields = r['omitManagedFields'];
  return out;
}

/** LoadPolicyFromFile: the file's policy, or an Error naming the file. */
export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    // Go's os.ReadFile error text.
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new Error(`loading audit policy file: failed to read file path ${quote(path)}: ${code === 'EISDIR' ? 'read' : 'open'} ${path}: ${why}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    throw new Error(`loading audit policy file: ${(err as Error).message}: from file ${path}`);
  }
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function matchesResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // A cluster-scoped resource's namespace is '' and matches "".
  if ((r.namespaces ?? []).length > 0 && !(r.namespaces ?? []).includes(a.namespace)) return false;
  if ((r.resources ?? []).length === 0) return true;
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  for (const gr of r.resources ?? []) {
    if ((gr.group ?? '') !== a.apiGroup) continue;
    if ((gr.resources ?? []).length === 0) return true;
    for (const res of gr.resources ?? []) {
      if ((gr.resourceNames ?? []).length > 0 && !(gr.resourceNames ?? []).includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource !== '' && res.startsWith('*/') && a.subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && a.resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if ((r.users ?? []).length > 0 && (a.user === undefined || !(r.users ?? []).includes(a.user.name))) return false;
  if ((r.userGroups ?? []).length > 0 && (a.user === undefined || !a.user.groups.some((g) => (r.userGroups ?? []).includes(g)))) return false;
  if ((r.verbs ?? []).length > 0 && !(r.verbs ?? []).includes(a.verb)) return false;
  if ((r.namespaces ?? []).length > 0 || (r.resources ?? []).length > 0) return matchesResource(r, a);
  if ((r.nonResourceURLs ?? []).length > 0) return !a.isResourceRequest && (r.nonResourceURLs ?? []).some((s) => pathMatches(a.path, s));
  return true;
}

const NONE: RequestAuditConfig = { level: 'None', omitStages: [], omitManagedFields: false };

/** The policy rule checker (policy.Checker): the first matching rule decides. */
export function newPolicyRuleEvaluator(p: Policy): (a: AuditAttributes) => RequestAuditConfig {
  const policyStages = p.omitStages ?? [];
  return (a) => {
    for (const r of p.rules) {
      if (!ruleMatches(r, a)) continue;
      return {
        level: r.level, omitStages: [...new Set([...policyStages, ...(r.omitStages ?? [])])],
        omitManagedFields: r.omitManagedFields ?? p.omitManagedFields ?? false,
      };
    }
    return { ...NONE, omitStages: policyStages };
  };
}
