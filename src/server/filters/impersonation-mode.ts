// The impersonation modes of kube 1.36 (k8s.io/apiserver/pkg/endpoints/filters/impersonation/mode.go,
// ConstrainedImpersonation on by default): the constrained modes associated-node, arbitrary-node,
// serviceaccount and user-info, which need `impersonate-on:<mode>:<verb>` on the request itself and
// `impersonate:<mode>` on what is impersonated (in authentication.k8s.io), then legacy
// impersonation (`impersonate` on users, groups, serviceaccounts in the core group, uids and
// userextras in authentication.k8s.io). The first mode that allows wins; when none does, the first
// error met is the answer.
import { fieldPath, formatFieldError, aggregateMessages } from '../../apimachinery/errors/field-errors.ts';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { validateNamespaceName, validateServiceAccountName } from '../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain } from '../../apimachinery/validation/validation.ts';
import type { Attributes, Authorizer } from '../../authz/authorizer.ts';
import { forbiddenStatusError } from '../../authz/forbidden.ts';
import { goQuoteList } from '../../authz/rbac/escalation.ts';
import { isDomainPrefixedPath } from '../../apimachinery/validation/domain-prefixed-path.ts';

/** What the Impersonate-* headers ask for, as sent (no defaulting). */
export interface WantedUser {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface ImpersonatedUser {
  readonly user: UserInfo;
  /** The verb that allowed it ('' for legacy impersonation), as audit records it. */
  readonly constraint: string;
}

/** Resolves the user one mode lets the requester impersonate, undefined when the mode does not apply; rejects with a 403 StatusError. */
type Mode = (wanted: WantedUser, attributes: Attributes) => Promise<ImpersonatedUser | undefined>;

const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const NODES_GROUP = 'system:nodes';
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';
const PRIVILEGED_GROUP = 'system:masters';
const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';
const ASSOCIATED_NODE_KEYS = 'authentication.k8s.io/associated-node-keys';
/** Beyond this many groups or extra values, a constrained mode first tries one wildcard check. */
const MANY_CHECKS = 4;

export function nodeName(username: string): string | undefined {
  const prefix = 'system:node:';
  if (!username.startsWith(prefix)) return undefined;
  const name = username.slice(prefix.length);
  return isDNS1123Subdomain(name).length === 0 ? name : undefined;
}

/** serviceaccount.SplitUsername. */
function serviceAccountOf(username: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (validateNamespaceName(namespace, false).length > 0 || validateServiceAccountName(name, false).length > 0) return undefined;
  return { namespace, name };
}

const onlyUsernameSet = (u: WantedUser): boolean => u.uid === '' && u.groups.length === 0 && Object.keys(u.extra).length === 0;

function attributesFor(requestor: UserInfo, group: string, verb: string, resource: string, name: string): Attributes {
  return {
    user: requestor, verb, resourceRequest: true, apiGroup: group, apiVersion: 'v1', resource, subresource: '', name,
    namespace: '', path: '',
  };
}

type View = (a: Attributes) => Attributes;
const asIs: View = (a) => a;

/** checkAuthorization: resolves when `view(attributes)` is allowed, else rejects with the 403 for them. */
async function checkAuthorization(authorizer: Authorizer, attributes: Attributes, view: View = asIs): Promise<void> {
  const viewed = view(attributes);
  const r = await authorizer.authorize(viewed);
  if (r.decision === 'Allow') return;
  let msg = r.reason;
  if (r.error !== undefined) msg = r.reason === '' ? r.error.message : `${r.error.message}: ${r.reason}`;
  throw forbiddenStatusError(viewed, msg);
}

const allowed = async (authorizer: Authorizer, a: Attributes, view: View): Promise<boolean> =>
  (await authorizer.authorize(view(a))).decision === 'Allow';

/** The checks constrained modes add, which legacy impersonation never made. */
function extraProblem(extra: Readonly<Record<string, readonly string[]>>): string | undefined {
  for (const [key, values] of Object.entries(extra)) {
    if (key === '') return 'impersonating the empty string key in extra is not allowed';
    const errs = isDomainPrefixedPath(fieldPath('extra', 'key'), key);
    if (errs.length > 0) return `impersonating an invalid key in extra is not allowed: ${aggregateMessages(errs.map(formatFieldError))}`;
    if (key !== key.toLowerCase()) return `impersonating a non-lowercase key in extra is not allowed: ${goQuote(key)}`;
    if (values.length === 0) return 'impersonating empty values in extra is not allowed';
    if (values.includes('')) return 'impersonating the empty string value in extra is not allowed';
  }
  return undefined;
}

/**
 * impersonationModeState.check: authorizes every field of the wanted user with `verb` and builds
 * the user: a service account gets its groups when none are asked for, a node the nodes group (in
 * constrained modes), and everyone system:authenticated (system:unauthenticated for anonymous).
 */
async function checkWantedUser(authorizer: Authorizer, verb: string, constrained: boolean, wanted: WantedUser,
  requestor: UserInfo, view: View = asIs): Promise<ImpersonatedUser> {
  const group = constrained ? AUTHENTICATION_GROUP : '';
  let groups = [...wanted.groups];

  const ua: { -readonly [K in keyof Attributes]: Attributes[K] } = attributesFor(requestor, group, verb, 'users', wanted.name);
  const node = constrained ? nodeName(wanted.name) : undefined;
  if (node !== undefined) {
    ua.resource = 'nodes';
    ua.name = node;
    if (wanted.groups.length > 0) throw forbiddenStatusError(ua, `when impersonating a node, cannot impersonate groups ${goQuoteList(wanted.groups)}`);
    groups = [NODES_GROUP];
  }
  const sa = serviceAccountOf(wanted.name);
  if (sa !== undefined) {
    ua.resource = 'serviceaccounts';
    ua.namespace = sa.namespace;
    ua.name = sa.name;
    if (constrained && wanted.groups.length > 0) {
      throw forbiddenStatusError(ua, `when impersonating a service account, cannot impersonate groups ${goQuoteList(wanted.groups)}`);
    }
    if (wanted.groups.length === 0) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`];
  }
  await checkAuthorization(authorizer, ua, view);

  if (wanted.uid !== '') await checkAuthorization(authorizer, attributesFor(requestor, AUTHENTICATION_GROUP, verb, 'uids', wanted.uid), view);

  if (wanted.groups.length > 0) {
    const ga = attributesFor(requestor, group, verb, 'groups', '');
    let done = false;
    if (constrained) {
      if (wanted.groups.includes('')) throw forbiddenStatusError(ga, 'impersonating the empty string group is not allowed');
      if (wanted.groups.includes(PRIVILEGED_GROUP)) {
        throw forbiddenStatusError({ ...ga, name: PRIVILEGED_GROUP }, 'impersonating the system:masters group is not allowed');
      }
      if (wanted.groups.length >= MANY_CHECKS) done = await allowed(authorizer, { ...ga, name: '*' }, view);
    }
    for (const g of done ? [] : wanted.groups) await checkAuthorization(authorizer, { ...ga, name: g }, view);
  }

  const extraKeys = Object.keys(wanted.extra);
  if (extraKeys.length > 0) {
    const ea = attributesFor(requestor, AUTHENTICATION_GROUP, verb, 'userextras', '');
    let done = false;
    if (constrained) {
      const problem = extraProblem(wanted.extra);
      if (problem !== undefined) throw forbiddenStatusError(ea, problem);
      const values = Object.values(wanted.extra).reduce((n, v) => n + v.length, 0);
      if (extraKeys.length >= MANY_CHECKS || values >= MANY_CHECKS) {
        done = await allowed(authorizer, { ...ea, subresource: '*', name: '*' }, view);
      }
    }
    for (const [key, values] of done ? [] : Object.entries(wanted.extra)) {
      for (const v of values) await checkAuthorization(authorizer, { ...ea, subresource: key, name: v }, view);
    }
  }

  if (wanted.name === ANONYMOUS) {
    if (!groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_UNAUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED) && !groups.includes(ALL_AUTHENTICATED)) {
    groups.push(ALL_AUTHENTICATED);
  }
  const user: UserInfo = {
    name: wanted.name, groups,
    ...(wanted.uid !== '' ? { uid: wanted.uid } : {}),
    ...(extraKeys.length > 0 ? { extra: wanted.extra } : {}),
  };
  return { user, constraint: constrained ? verb : '' };
}

/**
 * A constrained mode: applies when `applies` holds, then needs `impersonate-on:<mode>:<verb>` on
 * the request and `impersonate:<mode>` on every impersonated field. `view` changes the attributes
 * the authorizer sees (associated-node hides the requester's extra values and the node's name).
 */
function constrainedMode(authorizer: Authorizer, mode: string, applies: (wanted: WantedUser, requestor: UserInfo) => boolean,
  view: View = asIs): Mode {
  return async (wanted, attributes) => {
    const requestor = attributes.user;
    if (requestor === undefined || !applies(wanted, requestor)) return undefined;
    await checkAuthorization(authorizer, { ...attributes, verb: `impersonate-on:${mode}:${attributes.verb}` }, view);
    return checkWantedUser(authorizer, `impersonate:${mode}`, true, wanted, requestor, view);
  };
}

/** The associated-node view: the requester's extra reduced to its keys, and any node name for the mode's own verb. */
function associatedNodeView(a: Attributes): Attributes {
  const user = a.user;
  const viewedUser: UserInfo | undefined = user === undefined ? undefined
    : { ...user, extra: { [ASSOCIATED_NODE_KEYS]: Object.keys(user.extra ?? {}).sort() } };
  return { ...a, user: viewedUser, name: a.verb === 'impersonate:associated-node' ? '*' : a.name };
}

/** Every mode, in the order kube tries them. */
function impersonationModes(authorizer: Authorizer): Mode[] {
  return [
    constrainedMode(authorizer, 'associated-node', (wanted, requestor) => {
      const node = nodeName(wanted.name);
      const values = requestor.extra?.[NODE_NAME_EXTRA] ?? [];
      return onlyUsernameSet(wanted) && node !== undefined && serviceAccountOf(requestor.name) !== undefined &&
        values.length === 1 && values[0] === node;
    }, associatedNodeView),
    constrainedMode(authorizer, 'arbitrary-node', (wanted) => onlyUsernameSet(wanted) && nodeName(wanted.name) !== undefined),
    constrainedMode(authorizer, 'serviceaccount', (wanted) => onlyUsernameSet(wanted) && serviceAccountOf(wanted.name) !== undefined),
    constrainedMode(authorizer, 'user-info', (wanted) => nodeName(wanted.name) === undefined && serviceAccountOf(wanted.name) === undefined),
    async (wanted, attributes) => {
      if (attributes.user === undefined) return undefined;
      return checkWantedUser(authorizer, 'impersonate', false, wanted, attributes.user);
    },
  ];
}

const MODE_CACHE_SIZE = 10_000;

/**
 * Tries the mode that last worked for this requester first, then the others in order; the first
 * error met is what the requester gets when no mode allows.
 */
export class ImpersonationModes {
  private readonly modes: Mode[];
  private readonly lastMode = new Map<string, number>();

  constructor(authorizer: Authorizer) {
    this.modes = impersonationModes(authorizer);
  }

  /** Rejects with a 403 StatusError. */
  async impersonatedUser(wanted: WantedUser, attributes: Attributes): Promise<ImpersonatedUser> {
    const key = attributes.user?.name ?? '';
    const last = this.lastMode.get(key);
    let firstErr: unknown;
    const attempt = async (i: number): Promise<ImpersonatedUser | undefined> => {
      try {
        return await this.modes[i]?.(wanted, attributes);
      } catch (err) {
        firstErr ??= err;
        return undefined;
      }
    };
    if (last !== undefined) {
      const u = await attempt(last);
      if (u !== undefined) { this.remember(key, last); return u; }
    }
    for (let i = 0; i < this.modes.length; i++) {
      if (i === last) continue;
      const u = await attempt(i);
      if (u === undefined) continue;
      this.remember(key, i);
      return u;
    }
    if (firstErr !== undefined) throw firstErr;
    throw new Error('all impersonation modes failed');
  }

  /** An LRU of the requester's last successful mode. */
  private remember(key: string, i: number): void {
    this.lastMode.delete(key);
    this.lastMode.set(key, i);
    if (this.lastMode.size > MODE_CACHE_SIZE) {
      const oldest = this.lastMode.keys().next().value;
      if (oldest !== undefined) this.lastMode.delete(oldest);
    }
  }
}
