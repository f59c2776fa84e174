// kube's authz library for policies: `authorizer.group('apps').resource('deployments')
// .namespace('ns').check('create').allowed()`, `authorizer.path('/healthz').check('get')`,
// `authorizer.serviceAccount(ns, name)`, `authorizer.requestResource`, field/label selectors, and
// the decision's allowed/reason/errored/error. The authorization itself is the caller's: a
// CelAuthorizer given with the activation (see authorizerValue). Checks may be asynchronous; an
// expression that runs one then yields a promise (use evaluateAsync).
// Go counterpart: k8s.io/apiserver/pkg/cel/library/authz.go.
import type { Environment } from '@marcbachmann/cel-js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/validation.ts';
import { def, fail } from './util.ts';

/** The user a check runs as (user.Info). */
export interface CelUserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The attributes of one authorization check (authorizer.AttributesRecord). */
export interface CelAuthzAttributes {
  readonly user: CelUserInfo;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly path?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  /** Raw selectors; the authorizer parses them (kube: AuthorizeWithSelectors). */
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
}

export interface CelAuthzDecision {
  readonly decision: 'allow' | 'deny' | 'noOpinion';
  readonly reason: string;
  /** The authorizer's error text, if it failed. */
  readonly error?: string;
}

/** What the policy code wires in: kapi's authorizer chain, as kube's authorizer.Authorizer. */
export interface CelAuthorizer {
  /** Never rejects: a failure is a decision with `error`. */
  authorize(attrs: CelAuthzAttributes): CelAuthzDecision | Promise<CelAuthzDecision>;
}

export class AuthorizerVal {
  constructor(readonly user: CelUserInfo, readonly authz: CelAuthorizer, readonly requestResource?: ResourceCheckVal) {}
}
export class PathCheckVal {
  constructor(readonly a: AuthorizerVal, readonly path: string) {}
}
export class GroupCheckVal {
  constructor(readonly a: AuthorizerVal, readonly group: string) {}
}
export class ResourceCheckVal {
  constructor(
    readonly a: AuthorizerVal, readonly group: string, readonly resource: string,
    readonly subresource = '', readonly namespace = '', readonly name = '', readonly fieldSelector = '', readonly labelSelector = '',
  ) {}
  with(change: Partial<Pick<ResourceCheckVal, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): ResourceCheckVal {
    const c = { ...this, ...change };
    return new ResourceCheckVal(this.a, this.group, this.resource, c.subresource, c.namespace, c.name, c.fieldSelector, c.labelSelector);
  }
}
export class DecisionVal {
  constructor(readonly d: CelAuthzDecision) {}
}

/** The request's resource, for `authorizer.requestResource`. */
export interface CelRequestResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** The value of the `authorizer` variable (with `requestResource` when the request has one). */
export function authorizerValue(user: CelUserInfo, authz: CelAuthorizer, request?: CelRequestResource): AuthorizerVal {
  const a = new AuthorizerVal(user, authz);
  if (request === undefined) return a;
  const rr = new ResourceCheckVal(a, request.group, request.resource, request.subresource, request.namespace, request.name);
  return new AuthorizerVal(user, authz, rr);
}

const decide = (r: CelAuthzDecision | Promise<CelAuthzDecision>): DecisionVal | Promise<DecisionVal> =>
  r instanceof Promise ? r.then((d) => new DecisionVal(d)) : new DecisionVal(r);

export function registerAuthz(env: Environment): void {
  const A = 'kubernetes.authorization.Authorizer';
  const P = 'kubernetes.authorization.PathCheck';
  const G = 'kubernetes.authorization.GroupCheck';
  const R = 'kubernetes.authorization.ResourceCheck';
  const D = 'kubernetes.authorization.Decision';
  env.registerType(R, ResourceCheckVal);
  env.registerType(A, { ctor: AuthorizerVal, fields: { requestResource: R } });
  env.registerType(P, PathCheckVal);
  env.registerType(G, GroupCheckVal);
  env.registerType(D, DecisionVal);
  def(env, `${A}.path(string): ${P}`, (a: AuthorizerVal, path: string) => (path.trim() === '' ? fail('path must not be empty') : new PathCheckVal(a, path)));
  def(env, `${A}.group(string): ${G}`, (a: AuthorizerVal, g: string) => new GroupCheckVal(a, g));
  def(env, `${A}.serviceAccount(string, string): ${A}`, (a: AuthorizerVal, ns: string, name: string) => {
    if (isDNS1123Subdomain(name).length > 0) fail('Invalid service account name');
    if (isDNS1123Label(ns).length > 0) fail('Invalid service account namespace');
    const user = { name: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] };
    return new AuthorizerVal(user, a.authz);
  });
  def(env, `${G}.resource(string): ${R}`, (g: GroupCheckVal, r: string) => (r.trim() === '' ? fail('resource must not be empty') : new ResourceCheckVal(g.a, g.group, r)));
  def(env, `${R}.subresource(string): ${R}`, (r: ResourceCheckVal, s: string) => r.with({ subresource: s }));
  def(env, `${R}.namespace(string): ${R}`, (r: ResourceCheckVal, s: string) => r.with({ namespace: s }));
  def(env, `${R}.name(string): ${R}`, (r: ResourceCheckVal, s: string) => r.with({ name: s }));
  def(env, `${R}.fieldSelector(string): ${R}`, (r: ResourceCheckVal, s: string) => r.with({ fieldSelector: s }));
  def(env, `${R}.labelSelector(string): ${R}`, (r: ResourceCheckVal, s: string) => r.with({ labelSelector: s }));
  def(env, `${P}.check(string): ${D}`, (p: PathCheckVal, verb: string) =>
    decide(p.a.authz.authorize({ user: p.a.user, verb, resourceRequest: false, path: p.path })));
  def(env, `${R}.check(string): ${D}`, (r: ResourceCheckVal, verb: string) => decide(r.a.authz.authorize({
    user: r.a.user, verb, resourceRequest: true, apiGroup: r.group, apiVersion: '*', resource: r.resource, subresource: r.subresource,
    namespace: r.namespace, name: r.name,
    ...(r.fieldSelector !== '' ? { fieldSelector: r.fieldSelector } : {}),
    ...(r.labelSelector !== '' ? { labelSelector: r.labelSelector } : {}),
  })));
  def(env, `${D}.allowed(): bool`, (d: DecisionVal) => d.d.decision === 'allow');
  def(env, `${D}.reason(): string`, (d: DecisionVal) => d.d.reason);
  def(env, `${D}.errored(): bool`, (d: DecisionVal) => d.d.error !== undefined);
  def(env, `${D}.error(): string`, (d: DecisionVal) => d.d.error ?? '');
}
