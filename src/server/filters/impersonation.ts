// Impersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation, as kube 1.36 serves it with
// constrained impersonation on): Impersonate-User, Impersonate-Group (repeatable), Impersonate-Uid
// and Impersonate-Extra-<key> switch the request's user after authentication, when the
// authenticated user may impersonate each of them (see impersonation-mode.ts). The headers are
// removed before the request goes further.
import type { IncomingMessage } from 'node:http';
import { newBadRequest } from '../../apimachinery/errors/status-error.ts';
import { goQuote, goStringSlice, goStringSliceMap } from '../../apimachinery/goformat/index.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import { requestAttributes } from './authorization.ts';
import { ImpersonationModes, type WantedUser } from './impersonation-mode.ts';
import type { Filter } from './types.ts';

const USER = 'impersonate-user';
const UID = 'impersonate-uid';
const GROUP = 'impersonate-group';
const EXTRA_PREFIX = 'impersonate-extra-';

/** url.PathUnescape of a header suffix; a malformed escape keeps the key as sent. */
function unescapeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}


/**
 * processImpersonationHeaders: the wanted user, undefined when no user is impersonated. Rejects
 * groups, a uid or extra without a user with 400, as kube does.
 */
export function impersonationHeaders(req: IncomingMessage): WantedUser | undefined {
  const distinct = req.headersDistinct;
  const name = distinct[USER]?.[0] ?? '';
  const uid = distinct[UID]?.[0] ?? '';
  const groups = distinct[GROUP];
  let extra: Record<string, string[]> | undefined;
  for (const [header, values] of Object.entries(distinct)) {
    if (!header.startsWith(EXTRA_PREFIX) || values === undefined || values.length === 0) continue;
    const key = unescapeExtraKey(header.slice(EXTRA_PREFIX.length).toLowerCase());
    extra ??= {};
    (extra[key] ??= []).push(...values);
  }
  const hasGroups = groups !== undefined && groups.length > 0;
  const hasExtra = Object.keys(distinct).some((h) => h.startsWith(EXTRA_PREFIX));
  if (name === '' && (uid !== '' || hasGroups || hasExtra)) {
    throw newBadRequest(`requested &user.DefaultInfo{Name:"", UID:${goQuote(uid)}, Groups:${goStringSlice(hasGroups ? groups : undefined)}, ` +
      `Extra:${goStringSliceMap(extra)}} without impersonating a user name`);
  }
  if (name === '') return undefined;
  // Nothing further down may know impersonation was used.
  for (const h of Object.keys(req.headers)) {
    if (h === USER || h === UID || h === GROUP || h.startsWith(EXTRA_PREFIX)) delete req.headers[h];
  }
  return { name, uid, groups: hasGroups ? [...groups] : [], extra: extra ?? {} };
}

export const withImpersonation = (authorizer: Authorizer): Filter => {
  const modes = new ImpersonationModes(authorizer);
  return (next) => async (req, res, state) => {
    const wanted = impersonationHeaders(req);
    if (wanted === undefined) {
      await next(req, res, state);
      return;
    }
    if (state.user === undefined) throw new Error('no User found in the context');
    const impersonated = await modes.impersonatedUser(wanted, requestAttributes(state));
    state.user = impersonated.user;
    await next(req, res, state);
  };
};
