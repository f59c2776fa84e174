// authorization.k8s.io/v1 (pkg/registry/authorization): create-only reviews that ask the
// server's authorizer about a user (subjectaccessreviews), the requester
// (selfsubjectaccessreviews, selfsubjectrulesreviews) or a namespace (localsubjectaccessreviews).
import { fieldPath, GoSyntax, invalid, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import { objectMetaJSON } from '../../apimachinery/meta/object-meta-json.ts';
import { goEscapeJSON } from '../../apimachinery/runtime/serializer/json.ts';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject, ObjectMeta } from '../../apimachinery/meta/types.ts';
import type { RequestContext, UserInfo } from '../../apimachinery/request/context.ts';
import type { Creater } from '../../registry/rest/capabilities.ts';
import { namespaceMismatch } from '../../registry/rest/object-target.ts';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../../authz/authorizer.ts';
import type { APIGroupDefinition, VirtualResource } from '../../registry/rest/group.ts';

export interface ResourceAttributes {
  namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string;
}
export interface NonResourceAttributes { path?: string; verb?: string }

export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string; groups?: string[]; extra?: Record<string, string[]>; uid?: string;
}
export interface SubjectAccessReviewStatus { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string }
export interface AccessReview {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: SubjectAccessReviewSpec; status?: SubjectAccessReviewStatus;
}

export interface ResourceRule { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }
export interface NonResourceRule { verbs: string[]; nonResourceURLs?: string[] }
export interface RulesReviewStatus { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean; evaluationError?: string }

/** The server's authorizer (access reviews) and rule resolver (rules reviews). */
export interface AuthorizationDeps {
  readonly authorizer: Authorizer;
  readonly ruleResolver: RuleResolver;
}

const GROUP = 'authorization.k8s.io';

/**
 * Metadata of a review must be empty, but for the fields `allowed` names (managedFields, which the
 * create handler sets, aside). The bad value is the whole ObjectMeta as Go marshals it.
 */
function metadataErrors(meta: ObjectMeta, allowed: readonly (keyof ObjectMeta)[]): FieldError[] {
  const rest = objectMetaJSON(meta);
  delete rest['managedFields'];
  for (const k of allowed) delete rest[k];
  const detail = allowed.includes('namespace') ? 'must be empty except for namespace' : 'must be empty';
  return Object.keys(rest).length > 0 ? [invalid(fieldPath('metadata'), new GoSyntax(goEscapeJSON(JSON.stringify(objectMetaJSON(meta)))), detail)] : [];
}

/** The internal NonResourceAttributes as kube prints it (Go field names, no JSON tags). */
const goNonResource = (n: NonResourceAttributes | null | undefined): GoSyntax => new GoSyntax(goEscapeJSON(JSON.stringify({ Path: n?.path ?? '', Verb: n?.verb ?? '' })));

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/** ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function validateAccessReviewSpec(spec: SubjectAccessReviewSpec, needsSubject: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec');
  const res = present(spec.resourceAttributes);
  const nonRes = present(spec.nonResourceAttributes);
  // kube reports the (absent) nonResourceAttributes as the bad value: null.
  if (!res && !nonRes) errs.push(invalid(p.child('resourceAttributes'), null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (res && nonRes) errs.push(invalid(p.child('nonResourceAttributes'), goNonResource(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  if (needsSubject && (spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push(invalid(p.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errs;
}

/** authorizationutil.AuthorizationAttributesFrom. */
function attributesOf(user: UserInfo, spec: SubjectAccessReviewSpec): Attributes {
  const r = spec.resourceAttributes;
  if (present(r)) {
    return { user, resourceRequest: true, verb: r.verb ?? '', namespace: r.namespace ?? '', apiGroup: r.group ?? '',
      apiVersion: r.version ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '', path: '' };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, resourceRequest: false, verb: n.verb ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '',
    subresource: '', name: '', path: n.path ?? '' };
}

/** allowed for Allow, denied for Deny, the reason and the evaluation error as the authorizers gave them. */
export function statusOf(r: AuthorizationResult): SubjectAccessReviewStatus {
  const s: SubjectAccessReviewStatus = { allowed: r.decision === 'Allow' };
  if (r.decision === 'Deny') s.denied = true;
  if (r.reason !== '') s.reason = r.reason;
  if (r.error !== undefined && r.error.message !== '') s.evaluationError = r.error.message;
  return s;
}

type Kind = 'SubjectAccessReview' | 'SelfSubjectAccessReview' | 'LocalSubjectAccessReview';

function accessReviewREST(deps: AuthorizationDeps, kind: Kind): Creater {
  return {
    async create(ctx: RequestContext, obj, validate) {
      const review = structuredClone(obj) as AccessReview;
      review.spec = review.spec ?? {};
      const local = kind === 'LocalSubjectAccessReview';
      // kube's create handler checks the body's namespace against the URL's (400) and fills an
      // empty one before the REST validates, so the spec is compared with the request's namespace.
      const metaNs = review.metadata?.namespace ?? '';
      if (local && metaNs !== '' && metaNs !== ctx.namespace) throw namespaceMismatch();
      const errs = [
        ...validateAccessReviewSpec(review.spec, kind !== 'SelfSubjectAccessReview'),
        ...metadataErrors(review.metadata, local ? ['namespace'] : []),
      ];
      const attrs = review.spec.resourceAttributes;
      if (local && present(attrs) && (attrs.namespace ?? '') !== ctx.namespace) {
        errs.push(invalid(fieldPath('spec', 'resourceAttributes', 'namespace'), attrs.namespace ?? '', 'must match metadata.namespace'));
      }
      if (local && present(review.spec.nonResourceAttributes)) {
        errs.push(invalid(fieldPath('spec', 'nonResourceAttributes'), goNonResource(review.spec.nonResourceAttributes), 'disallowed on this kind of request'));
      }
      // kube names no kind: its REST reads the kind of the decoded internal object, which is empty.
      if (errs.length > 0) throw newInvalid({ group: GROUP, kind: '' }, '', errs);
      if (validate !== undefined) await validate(structuredClone(obj));
      let user: UserInfo;
      if (kind === 'SelfSubjectAccessReview') {
        if (ctx.user === undefined) throw newBadRequest('no user present on request');
        // The review is about the requester; SelfSubjectAccessReviewSpec has no user fields, so
        // the answer names nobody (kube's REST asks the authorizer about ctx's user only).
        user = ctx.user;
      } else {
        const s = review.spec;
        user = { name: s.user ?? '', groups: s.groups ?? [], ...(s.uid !== undefined ? { uid: s.uid } : {}), ...(s.extra !== undefined ? { extra: s.extra } : {}) };
      }
      review.status = statusOf(await deps.authorizer.authorize(attributesOf(user, review.spec)));
      return review as KubeObject;
    },
  };
}

const nonEmpty = (v: readonly string[]): string[] | undefined => (v.length > 0 ? [...v] : undefined);

/** The rules in the wire shape of authorization.k8s.io/v1 (empty lists left out, as Go's omitempty does). */
function rulesReviewStatus(r: RulesResult): RulesReviewStatus {
  const status: RulesReviewStatus = {
    resourceRules: r.resourceRules.map((rule) => {
      const out: ResourceRule = { verbs: [...rule.verbs] };
      const groups = nonEmpty(rule.apiGroups);
      const resources = nonEmpty(rule.resources);
      const names = nonEmpty(rule.resourceNames);
      if (groups !== undefined) out.apiGroups = groups;
      if (resources !== undefined) out.resources = resources;
      if (names !== undefined) out.resourceNames = names;
      return out;
    }),
    nonResourceRules: r.nonResourceRules.map((rule) => {
      const out: NonResourceRule = { verbs: [...rule.verbs] };
      const urls = nonEmpty(rule.nonResourceURLs);
      if (urls !== undefined) out.nonResourceURLs = urls;
      return out;
    }),
    incomplete: r.incomplete,
  };
  if (r.error !== undefined && r.error.message !== '') status.evaluationError = r.error.message;
  return status;
}

/** The rules the requester holds in spec.namespace; the answer carries only the status, as kube's. */
function selfSubjectRulesReviewREST(deps: AuthorizationDeps): Creater {
  return {
    async create(ctx, obj, validate) {
      const review = obj as { apiVersion?: string; kind?: string; spec?: { namespace?: string } | null };
      if (ctx.user === undefined) throw newBadRequest('no user present on request');
      const namespace = review.spec?.namespace ?? '';
      if (namespace === '') throw newBadRequest('no namespace on request');
      if (validate !== undefined) await validate(structuredClone(obj));
      const status = rulesReviewStatus(await deps.ruleResolver.rulesFor(ctx.user, namespace));
      const out = { apiVersion: review.apiVersion, kind: review.kind, metadata: {}, spec: {}, status };
      return out as KubeObject;
    },
  };
}

const review = (resource: string, kind: string, namespaced: boolean, storage: () => object): VirtualResource => ({
  resource, kind, singular: kind.toLowerCase(), namespaced, storage,
});

export function authorizationGroup(deps: AuthorizationDeps): APIGroupDefinition {
  return {
    group: GROUP,
    versions: [{
      version: 'v1', resources: [],
      virtualResources: [
        review('localsubjectaccessreviews', 'LocalSubjectAccessReview', true, () => accessReviewREST(deps, 'LocalSubjectAccessReview')),
        review('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, () => accessReviewREST(deps, 'SelfSubjectAccessReview')),
        review('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, () => selfSubjectRulesReviewREST(deps)),
        review('subjectaccessreviews', 'SubjectAccessReview', false, () => accessReviewREST(deps, 'SubjectAccessReview')),
      ],
    }],
  };
}
