// authentication.k8s.io/v1 (pkg/registry/authentication): tokenreviews and selfsubjectreviews,
// create-only reviews answered from the server's authenticator and the request's user.
import { newBadRequest } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject, ObjectMeta } from '../../apimachinery/meta/types.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { nowRFC3339 } from '../../registry/generic/names.ts';
import type { Creater } from '../../registry/rest/capabilities.ts';
import type { APIGroupDefinition, VirtualResource } from '../../registry/rest/group.ts';

export interface UserInfoWire { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }

export interface TokenReview {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  spec: { token?: string; audiences?: string[] };
  status?: { authenticated?: boolean; user?: UserInfoWire; audiences?: string[]; error?: string };
}

export interface SelfSubjectReview {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  status?: { userInfo: UserInfoWire };
}

/** Who a token is, and for which of the audiences asked (kube's authenticator.Response). */
export interface TokenReviewResult { readonly user: UserInfo; readonly audiences?: readonly string[] }

export interface AuthenticationDeps {
  /**
   * The server's token authentication: the user, or undefined when the token is not valid; rejects
   * with an Error whose message TokenReview reports when the token is of a known kind but invalid.
   */
  authenticate(token: string, audiences: readonly string[]): Promise<TokenReviewResult | undefined>;
  /** --api-audiences: the audiences a review reports when it names none. */
  readonly apiAudiences?: readonly string[];
}

function toWireUser(u: UserInfo): UserInfoWire {
  const out: UserInfoWire = { username: u.name };
  if (u.uid !== undefined && u.uid !== '') out.uid = u.uid;
  if (u.groups.length > 0) out.groups = [...u.groups];
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}

function tokenReviewREST(deps: AuthenticationDeps): Creater {
  return {
    async create(ctx, obj, validate) {
      if (ctx.namespace !== '') throw newBadRequest(`namespace is not allowed on this type: ${ctx.namespace}`);
      const review = structuredClone(obj) as TokenReview;
      review.spec = review.spec ?? {};
      if ((review.spec.token ?? '') === '') throw newBadRequest('token is required for TokenReview in authentication');
      if (validate !== undefined) await validate(structuredClone(obj));
      const wanted = review.spec.audiences ?? [];
      const audiences = wanted.length > 0 ? wanted : [...(deps.apiAudiences ?? [])];
      let result: TokenReviewResult | undefined;
      let error: string | undefined;
      try {
        result = await deps.authenticate(review.spec.token ?? '', audiences);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      // kube reports the audiences the token was found valid for (of those asked), not those asked
      const valid = result?.audiences ?? audiences;
      review.status = result === undefined
        ? { user: {}, ...(error !== undefined ? { error } : {}) }
        : { authenticated: true, user: toWireUser(result.user), ...(valid.length > 0 ? { audiences: [...valid] } : {}) };
      return review as KubeObject;
    },
  };
}

function selfSubjectReviewREST(): Creater {
  return {
    async create(ctx, obj, validate) {
      if (validate !== undefined) await validate(structuredClone(obj));
      if (ctx.user === undefined) throw newBadRequest('no user present on request');
      const review = structuredClone(obj) as SelfSubjectReview;
      review.metadata = { ...review.metadata, creationTimestamp: nowRFC3339() };
      review.status = { userInfo: toWireUser(ctx.user) };
      return review as KubeObject;
    },
  };
}

export function authenticationGroup(deps: AuthenticationDeps): APIGroupDefinition {
  const tokenReviews: VirtualResource = {
    resource: 'tokenreviews', kind: 'TokenReview', singular: 'tokenreview', namespaced: false,
    storage: () => tokenReviewREST(deps),
  };
  const selfSubjectReviews: VirtualResource = {
    resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', singular: 'selfsubjectreview', namespaced: false,
    storage: () => selfSubjectReviewREST(),
  };
  return {
    group: 'authentication.k8s.io',
    versions: [
      { version: 'v1', resources: [], virtualResources: [tokenReviews, selfSubjectReviews] },
    ],
  };
}
