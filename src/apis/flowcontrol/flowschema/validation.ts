// FlowSchema validation (pkg/apis/flowcontrol/validation ValidateFlowSchema): precedence, the
// distinguisher, the priority level it names, each rule's subjects and resource / non-resource
// rules, and the two mandatory schemas, whose spec is fixed.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateNamespaceName, validateServiceAccountName } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { FlowSchema } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type Spec = NonNullable<FlowSchema['spec']>;
type Rule = NonNullable<Spec['rules']>[number];
type Subject = NonNullable<Rule['subjects']>[number];

const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE = 10000;
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

/** The specs kube's apiserver keeps for the mandatory schemas (bootstrap MandatoryFlowSchemas). */
const everything = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};
const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const MANDATORY_FLOW_SCHEMAS: Readonly<Record<string, Spec>> = {
  'exempt': { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1, rules: [{ subjects: groups('system:masters'), ...everything }] },
  'catch-all': {
    priorityLevelConfiguration: { name: 'catch-all' }, matchingPrecedence: 10000, distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: groups('system:unauthenticated', 'system:authenticated'), ...everything }],
  },
};

/** The spec as kube's internal Go struct prints it (field names, nil pointers and slices as null). */
function goFlowSchemaSpec(spec: RO<Spec>): unknown {
  const list = <T>(v: readonly T[] | undefined): readonly T[] | null => v ?? null;
  return {
    PriorityLevelConfiguration: { Name: spec.priorityLevelConfiguration?.name ?? '' },
    MatchingPrecedence: spec.matchingPrecedence ?? 0,
    DistinguisherMethod: spec.distinguisherMethod === undefined ? null : { Type: spec.distinguisherMethod.type ?? '' },
    Rules: spec.rules === undefined ? null : spec.rules.map((r) => ({
      Subjects: r.subjects === undefined ? null : r.subjects.map((s) => ({
        Kind: s.kind ?? '',
        User: s.user === undefined ? null : { Name: s.user.name ?? '' },
        Group: s.group === undefined ? null : { Name: s.group.name ?? '' },
        ServiceAccount: s.serviceAccount === undefined ? null : { Namespace: s.serviceAccount.namespace ?? '', Name: s.serviceAccount.name ?? '' },
      })),
      ResourceRules: r.resourceRules === undefined ? null : r.resourceRules.map((rr) => ({
        Verbs: list(rr.verbs), APIGroups: list(rr.apiGroups), Resources: list(rr.resources), ClusterScope: rr.clusterScope ?? false, Namespaces: list(rr.namespaces),
      })),
      NonResourceRules: r.nonResourceRules === undefined ? null : r.nonResourceRules.map((nr) => ({ Verbs: list(nr.verbs), NonResourceURLs: list(nr.nonResourceURLs) })),
    })),
  };
}

function validateSubject(s: RO<Subject>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const kind = s.kind ?? '';
  if (!SUBJECT_KINDS.includes(kind)) return [notSupported(p.child('kind'), kind, SUBJECT_KINDS)];
  if (kind === 'ServiceAccount') {
    const sa = s.serviceAccount;
    if (sa === undefined) errs.push(required(p.child('serviceAccount'), "serviceAccount is required when subject kind is 'ServiceAccount'"));
    else {
      const name = sa.name ?? '';
      if (name === '') errs.push(required(p.child('serviceAccount', 'name'), ''));
      else if (name !== '*') for (const m of validateServiceAccountName(name, false)) errs.push(invalid(p.child('serviceAccount', 'name'), name, m));
      const ns = sa.namespace ?? '';
      if (ns === '') errs.push(required(p.child('serviceAccount', 'namespace'), 'must specify namespace for service account'));
      else for (const m of validateNamespaceName(ns, false)) errs.push(invalid(p.child('serviceAccount', 'namespace'), ns, m));
    }
  } else {
    const key = kind === 'User' ? 'user' : 'group';
    const named = s[key];
    if (named === undefined) errs.push(required(p.child(key), `${key} is required when subject kind is '${kind}'`));
    else if ((named.name ?? '') === '') errs.push(required(p.child(key, 'name'), ''));
  }
  if (kind !== 'User' && s.user !== undefined) errs.push(forbidden(p.child('user'), "user is forbidden when subject kind is not 'User'"));
  if (kind !== 'Group' && s.group !== undefined) errs.push(forbidden(p.child('group'), "group is forbidden when subject kind is not 'Group'"));
  if (kind !== 'ServiceAccount' && s.serviceAccount !== undefined) {
    errs.push(forbidden(p.child('serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
  }
  return errs;
}

function validateVerbs(verbs: readonly string[], p: FieldPath): FieldError[] {
  if (verbs.length === 0) return [required(p, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalid(p, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [notSupported(p, verbs, VERBS)];
}

/** ValidateNonResourceURLPath: the first problem only. */
function nonResourceURLProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const stars = path.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

function validateRule(r: RO<Rule>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = r.subjects ?? [];
  if (subjects.length === 0) errs.push(required(p.child('subjects'), 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(s, p.child('subjects').index(i))));
  const rules = r.resourceRules ?? [];
  const nonRules = r.nonResourceRules ?? [];
  if (rules.length === 0 && nonRules.length === 0) errs.push(required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  rules.forEach((rr, i) => {
    const rp = p.child('resourceRules').index(i);
    errs.push(...validateVerbs(rr.verbs ?? [], rp.child('verbs')));
    const apiGroups = rr.apiGroups ?? [];
    if (apiGroups.length === 0) errs.push(required(rp.child('apiGroups'), 'resource rules must supply at least one api group'));
    else if (apiGroups.length > 1 && apiGroups.includes('*')) errs.push(invalid(rp.child('apiGroups'), apiGroups, "if '*' is present, must not specify other api groups"));
    const resources = rr.resources ?? [];
    if (resources.length === 0) errs.push(required(rp.child('resources'), 'resource rules must supply at least one resource'));
    else if (resources.length > 1 && resources.includes('*')) errs.push(invalid(rp.child('resources'), resources, "if '*' is present, must not specify other resources"));
    const namespaces = rr.namespaces ?? [];
    if (namespaces.length === 0 && rr.clusterScope !== true) {
      errs.push(required(rp.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
    } else if (namespaces.includes('*')) {
      if (namespaces.length > 1) errs.push(invalid(rp.child('namespaces'), namespaces, "if '*' is present, must not specify other namespaces"));
    } else {
      namespaces.forEach((ns, j) => { for (const m of validateNamespaceName(ns, false)) errs.push(invalid(rp.child('namespaces').index(j), ns, NS_INTRO + m)); });
    }
  });
  nonRules.forEach((nr, i) => {
    const np = p.child('nonResourceRules').index(i);
    errs.push(...validateVerbs(nr.verbs ?? [], np.child('verbs')));
    const urls = nr.nonResourceURLs ?? [];
    if (urls.length === 0) errs.push(required(np.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
    else if (urls.includes('*')) {
      if (urls.length > 1) errs.push(invalid(np.child('nonResourceURLs'), urls, "if '*' is present, must not specify other non-resource URLs"));
    } else {
      urls.forEach((u, j) => { const m = nonResourceURLProblem(u); if (m !== undefined) errs.push(invalid(np.child('nonResourceURLs').index(j), u, m)); });
    }
  });
  return errs;
}

/** ValidateFlowSchemaSpec plus the mandatory-schema check (metadata is checked by the caller). */
export function validateFlowSchemaSpec(name: string, spec: RO<Spec>): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec');
  const mp = spec.matchingPrecedence ?? 0;
  if (mp <= 0) errs.push(invalid(p.child('matchingPrecedence'), mp, 'must be a positive value'));
  if (mp > FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE) errs.push(invalid(p.child('matchingPrecedence'), mp, `must not be greater than ${FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE}`));
  if (mp === 1 && name !== 'exempt') errs.push(invalid(p.child('matchingPrecedence'), mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = spec.distinguisherMethod;
  // kube reports the whole method struct as the unsupported value
  if (dm !== undefined && !DISTINGUISHER_METHODS.includes(dm.type ?? '')) errs.push(notSupported(p.child('distinguisherMethod', 'type'), { Type: dm.type ?? '' }, DISTINGUISHER_METHODS));
  const pl = spec.priorityLevelConfiguration?.name ?? '';
  if (pl === '') errs.push(required(p.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  else for (const m of nameIsDNSSubdomain(pl, false)) errs.push(invalid(p.child('priorityLevelConfiguration', 'name'), pl, m));
  (spec.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, p.child('rules').index(i))));
  const fixed = MANDATORY_FLOW_SCHEMAS[name];
  const have = goFlowSchemaSpec(spec);
  if (fixed !== undefined && !deepEqual(have, goFlowSchemaSpec(fixed))) errs.push(invalid(p, have, `spec of '${name}' must equal the fixed value`));
  return errs;
}
