// serviceaccounts/token (pkg/registry/core/serviceaccount/storage/token.go): issues a signed,
// expiring token for the service account, optionally bound to a pod, secret or node.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import {
  isNotFound, newBadRequest, newConflict, newInternalError, newInvalid,
} from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject, ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { BoundObject, ServiceAccountTokenIssuer } from '../../../authn/serviceaccount/index.ts';
import type { ResourceStore } from '../../../registry/rest/strategy.ts';
import { nowRFC3339 } from '../../../registry/generic/names.ts';
import type { Creater } from '../../../registry/rest/capabilities.ts';
import type { StoreLookup, SubresourceREST } from '../../../registry/rest/group.ts';
import type { Pod } from '../v1/types.ts';

export interface TokenRequest {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: {
    audiences?: string[] | null;
    expirationSeconds?: number;
    boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null;
  };
  status?: { token: string; expirationTimestamp: string | null };
}

const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** pkg/serviceaccount: the lifetime the ServiceAccount admission plugin gives projected tokens, and their extension. */
const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 60 * 60;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

/** ValidateTokenRequest. */
function validateTokenRequest(tr: TokenRequest): FieldError[] {
  const errs: FieldError[] = [];
  const exp = tr.spec.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
  const p = fieldPath('spec', 'expirationSeconds');
  if (exp < MIN_EXPIRATION_SECONDS) errs.push(invalid(p, exp, 'may not specify a duration less than 10 minutes'));
  if (exp > MAX_EXPIRATION_SECONDS) errs.push(invalid(p, exp, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

const BOUND_RESOURCES = { Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;

/** Go's GroupVersionKind.String(): "group/version, Kind=kind". */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

async function resolveBound(ctx: RequestContext, lookup: StoreLookup, tr: TokenRequest, saName: string):
  Promise<{ bound?: BoundObject; node?: { name: string; uid: string } }> {
  const ref = tr.spec.boundObjectRef;
  if (ref === undefined || ref === null) return {};
  const kind = ref.kind ?? '';
  const apiVersion = ref.apiVersion ?? '';
  // kube binds only to core Pods, Secrets and Nodes (the version is not checked)
  const coreGroup = !apiVersion.includes('/');
  if (!coreGroup || (kind !== 'Pod' && kind !== 'Secret' && kind !== 'Node')) {
    throw newBadRequest(`cannot bind token to object of type ${gvkString(apiVersion, kind)}`);
  }
  const store = lookup(BOUND_RESOURCES[kind]);
  if (store === undefined) throw newBadRequest(`cannot bind token to object of type ${gvkString(apiVersion, kind)}`);
  const name = ref.name ?? '';
  const objCtx: RequestContext = kind === 'Node' ? { ...ctx, namespace: '' } : ctx;
  const obj = await store.get(objCtx, name, {});
  if (kind === 'Pod' && ((obj as Pod).spec.serviceAccountName ?? '') !== saName) {
    throw newBadRequest(`cannot bind token for serviceaccount "${saName}" to pod running with different serviceaccount name.`);
  }
  const uid = obj.metadata.uid ?? '';
  if ((ref.uid ?? '') !== '' && ref.uid !== uid) {
    throw newConflict({ group: '', resource: kind }, name,
      `the UID in the bound object reference (${ref.uid ?? ''}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  const out: { bound?: BoundObject; node?: { name: string; uid: string } } = { bound: { kind, name, uid } };
  const nodeName = kind === 'Pod' ? (obj as Pod).spec.nodeName ?? '' : '';
  const nodes = lookup('nodes');
  if (nodeName !== '' && nodes !== undefined) {
    try {
      const node = await nodes.get({ ...ctx, namespace: '' }, nodeName, {});
      out.node = { name: nodeName, uid: node.metadata.uid ?? '' };
    } catch (err) {
      // a missing node still leaves its name in the token, as a hint of where the pod runs
      if (!isNotFound(err)) throw newInternalError(err);
      out.node = { name: nodeName, uid: '' };
    }
  }
  return out;
}

export function newTokenREST(serviceAccounts: ResourceStore<KubeObject>, lookup: StoreLookup, issuer: ServiceAccountTokenIssuer,
  apiAudiences: readonly string[] = [issuer.issuer]): Creater {
  return {
    async create(ctx, obj, validate, _opts) {
      const name = ctx.info.name;
      const tr = structuredClone(obj) as TokenRequest;
      tr.spec = tr.spec ?? {};
      if ((tr.metadata.name ?? '') !== '' && tr.metadata.name !== name) {
        throw newBadRequest('serviceaccount name in the request body must match the name in the URL');
      }
      // kube's TokenREST order: the service account first (404), its uid (409), then validation.
      const sa = await serviceAccounts.get(ctx, name, {});
      const saUID = sa.metadata.uid ?? '';
      const reqUID = tr.metadata.uid ?? '';
      if (reqUID !== '' && reqUID !== saUID) {
        // TokenRequestServiceAccountUIDValidation (beta, on in v1.36); the resource is named by the kind, as kube does.
        throw newConflict({ group: 'authentication.k8s.io', resource: 'TokenRequest' }, name,
          `the UID in the token request (${reqUID}) does not match the UID of the service account (${saUID})`);
      }
      if ((tr.spec.audiences ?? []).length === 0) tr.spec.audiences = [...apiAudiences];
      tr.spec.expirationSeconds = tr.spec.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
      tr.spec.boundObjectRef ??= null;
      tr.metadata = { ...tr.metadata, name, namespace: ctx.namespace, ...(saUID !== '' ? { uid: saUID } : {}), creationTimestamp: nowRFC3339() };
      // The status is cleared: Go prints the zero TokenRequestStatus so.
      tr.status = { token: '', expirationTimestamp: null };
      const errs = validateTokenRequest(tr);
      if (errs.length > 0) throw newInvalid({ group: 'authentication.k8s.io', kind: 'TokenRequest' }, name, errs);
      // Validating admission sees the request as kube's TokenREST has filled it in.
      if (validate !== undefined) await validate(structuredClone(tr) as KubeObject);
      const { bound, node } = await resolveBound(ctx, lookup, tr, name);
      const now = Date.now();
      const max = issuer.maxExpirationSeconds;
      if (max > 0 && tr.spec.expirationSeconds > max) {
        ctx.warnings.addWarning(`requested expiration of ${tr.spec.expirationSeconds} seconds shortened to ${max} seconds`);
        tr.spec.expirationSeconds = max;
      }
      // kube's safe transition for admission-injected pod tokens (3607 s for the API's own
      // audiences): the token lasts a year and carries when it should have expired.
      const audiences = tr.spec.audiences ?? [];
      const extend = issuer.extendExpiration && bound?.kind === 'Pod' && tr.spec.expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS &&
        audiences.every((a) => apiAudiences.includes(a));
      const issued = issuer.issue({
        namespace: ctx.namespace, name, uid: saUID, audiences,
        expirationSeconds: extend ? EXPIRATION_EXTENSION_SECONDS : tr.spec.expirationSeconds,
        ...(extend ? { warnAfterSeconds: tr.spec.expirationSeconds } : {}),
        ...(bound !== undefined ? { boundObject: bound } : {}),
        ...(node !== undefined ? { node } : {}),
      }, now);
      // The status names the requested lifetime, also for an extended token (kube's TokenREST).
      tr.status = { token: issued.token, expirationTimestamp: nowRFC3339(Math.floor(now / 1000) * 1000 + tr.spec.expirationSeconds * 1000) };
      return tr as KubeObject;
    },
  };
}

/** SetDefaults_TokenRequestSpec (authentication/v1), run by kube's decoder. */
function defaultTokenRequest(obj: KubeObject): void {
  const tr = obj as { spec?: TokenRequest['spec'] | null };
  // The spec is a struct in Go: there is always one to default, and encoding/json prints its
  // boundObjectRef (no omitempty) when mutating admission sends the request to a webhook.
  tr.spec ??= {};
  if (typeof tr.spec === 'object' && !Array.isArray(tr.spec)) {
    tr.spec.expirationSeconds ??= DEFAULT_TOKEN_EXPIRATION_SECONDS;
    tr.spec.boundObjectRef ??= null;
  }
}

/**
 * TokenRequestStatus's Go zero value (token and expirationTimestamp have no omitempty): what a
 * webhook sees before the token is issued. Filled in after field tracking, as kube's field manager
 * finds no change against a zero TokenRequest there.
 */
function zeroTokenRequestStatus(obj: KubeObject): void {
  const tr = obj as { status?: TokenRequest['status'] | Record<string, never> | null };
  if (tr.status === undefined || tr.status === null || Object.keys(tr.status).length === 0) tr.status = { token: '', expirationTimestamp: null };
}

/** extraSubresources of serviceaccounts: the token subresource signing with `issuer`. */
export function serviceAccountSubresources(issuer: ServiceAccountTokenIssuer, apiAudiences?: readonly string[]):
  <T extends KubeObject>(store: ResourceStore<T>, lookup: StoreLookup) => SubresourceREST[] {
  return <T extends KubeObject>(store: ResourceStore<T>, lookup: StoreLookup): SubresourceREST[] => [{
    name: 'token', kind: 'TokenRequest', kindGroupVersion: { group: 'authentication.k8s.io', version: 'v1' },
    storage: newTokenREST(store, lookup, issuer, apiAudiences),
    defaults: defaultTokenRequest, goZeroValues: zeroTokenRequestStatus,
  }];
}
