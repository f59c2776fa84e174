// Validation of an AuthenticationConfiguration, with kube's field paths and texts, compiling the
// CEL expressions on the way (a JWT authenticator is built from what this returns).
// Counterpart of k8s.io/apiserver/pkg/apis/apiserver/validation/validation.go
// (ValidateAuthenticationConfiguration, CompileAndValidateJWTAuthenticator).
import { X509Certificate } from 'node:crypto';
import {
  duplicate, FieldPath, forbidden, GoSyntax, invalid, required, tooMany, type FieldError,
} from '../../apimachinery/errors/field-errors.ts';
import { isDomainPrefixedPath } from '../../apimachinery/validation/domain-prefixed-path.ts';
import type { Program } from '../../cel/index.ts';
import { compileExpression, selectsClaim } from './cel.ts';
import type { AuthenticationConfiguration, JWTAuthenticator, PrefixedClaimOrExpression } from './config.ts';

/** The compiled expressions of one JWT authenticator (kube's CELMapper). */
export interface CompiledMappings {
  readonly username?: Program;
  readonly groups?: Program;
  readonly uid?: Program;
  readonly extra: readonly { readonly key: string; readonly expression: string; readonly program: Program }[];
  readonly claimValidationRules: readonly { readonly expression: string; readonly message: string; readonly program: Program }[];
  readonly userValidationRules: readonly { readonly expression: string; readonly message: string; readonly program: Program }[];
}

const MAX_JWT_AUTHENTICATORS = 64;

/** A path under `parent`, or the bare name when validating one authenticator without a path (kube's nil path). */
const under = (parent: FieldPath | undefined, name: string): FieldPath => (parent === undefined ? FieldPath.root(name) : parent.child(name));

/** Go's url.Parse, for what an issuer URL needs: scheme, user info, query, fragment. */
function checkURL(value: string, path: FieldPath, disallowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.includes(value)) {
    errs.push(invalid(path, value, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  const scheme = m?.[1]?.toLowerCase() ?? '';
  if (scheme !== 'https') errs.push(invalid(path, value, 'URL scheme must be https'));
  const rest = m === null ? value : value.slice(m[0].length);
  const hashAt = rest.indexOf('#');
  const beforeFragment = hashAt < 0 ? rest : rest.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const authority = beforeFragment.startsWith('//') ? beforeFragment.slice(2).split(/[/?]/)[0] ?? '' : '';
  if (authority.includes('@')) errs.push(invalid(path, value, 'URL must not contain a username or password'));
  if (queryAt >= 0 && queryAt < beforeFragment.length - 1) errs.push(invalid(path, value, 'URL must not contain a query'));
  if (hashAt >= 0 && hashAt < rest.length - 1) errs.push(invalid(path, value, 'URL must not contain a fragment'));
  return errs;
}

/** certutil.NewPoolFromBytes: at least one certificate, every CERTIFICATE block parses. */
export function caBundleError(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return 'data does not contain any valid RSA or ECDSA certificates';
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return undefined;
}

function compileErr(path: FieldPath, expression: string, detail: { type: string; detail: string }): FieldError {
  return detail.type === 'required' ? required(path, detail.detail) : invalid(path, expression, detail.detail);
}

interface State { usesEmail: boolean; usesEmailVerified: boolean }

function validatePrefixed(m: PrefixedClaimOrExpression | undefined, path: FieldPath, requiredField: boolean, errs: FieldError[]): Program | undefined {
  const claim = m?.claim ?? '';
  const expression = m?.expression ?? '';
  if (claim !== '' && expression !== '') {
    errs.push(invalid(path, '', "claim and expression can't both be set"));
  } else if (claim === '' && expression === '' && requiredField) {
    errs.push(required(path, 'claim or expression is required'));
  } else if (expression !== '') {
    const before = errs.length;
    if (m?.prefix !== undefined) errs.push(invalid(path.child('prefix'), m.prefix, 'may not be specified when expression is set'));
    const c = compileExpression(expression, 'claims', false);
    if (c.error !== undefined) errs.push(compileErr(path.child('expression'), expression, c.error));
    return errs.length === before && c.error === undefined ? c.program : undefined;
  } else if (claim !== '' && m?.prefix === undefined) {
    errs.push(required(path.child('prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return undefined;
}

function isKubernetesDomain(key: string): boolean {
  const slash = key.indexOf('/');
  const d = slash < 0 ? '' : key.slice(0, slash);
  return d === 'kubernetes.io' || d.endsWith('.kubernetes.io') || d === 'k8s.io' || d.endsWith('.k8s.io');
}

/**
 * One JWT authenticator. `path` undefined gives kube's paths without the `jwt[i]` prefix (as
 * oidc.New reports them). `disallowed`: issuers no JWT authenticator may claim (the service
 * account issuers).
 */
export function validateJWTAuthenticator(
  a: JWTAuthenticator, path: FieldPath | undefined, disallowed: readonly string[] = [],
): { errors: FieldError[]; mappings: CompiledMappings } {
  const errs: FieldError[] = [];
  const state: State = { usesEmail: false, usesEmailVerified: false };
  const issuer = a.issuer;
  const ip = under(path, 'issuer');
  const url = issuer.url ?? '';
  if (url === '') errs.push(required(ip.child('url'), ''));
  else errs.push(...checkURL(url, ip.child('url'), disallowed));
  const discovery = issuer.discoveryURL ?? '';
  if (discovery !== '') {
    if (url !== '' && url.replace(/\/+$/, '') === discovery.replace(/\/+$/, '')) {
      errs.push(invalid(ip.child('discoveryURL'), discovery, 'discoveryURL must be different from URL'));
    }
    errs.push(...checkURL(discovery, ip.child('discoveryURL'), []));
  }
  const auds = issuer.audiences ?? [];
  const policy = issuer.audienceMatchPolicy ?? '';
  const ap = ip.child('audiences');
  if (auds.length === 0) {
    errs.push(required(ap, `at least one ${ap.toString()} is required`));
  } else {
    const seen = new Set<string>();
    auds.forEach((aud, i) => {
      if (aud === '') errs.push(required(ap.index(i), ''));
      if (seen.has(aud)) errs.push(duplicate(ap.index(i), aud));
      seen.add(aud);
    });
    if (auds.length > 1 && policy !== 'MatchAny') {
      errs.push(invalid(ip.child('audienceMatchPolicy'), policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
    }
    if (auds.length === 1 && policy !== '' && policy !== 'MatchAny') {
      errs.push(invalid(ip.child('audienceMatchPolicy'), policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
    }
  }
  const ca = issuer.certificateAuthority ?? '';
  if (ca !== '') {
    const e = caBundleError(ca);
    if (e !== undefined) errs.push(invalid(ip.child('certificateAuthority'), '<omitted>', e));
  }
  const egress = issuer.egressSelectorType ?? '';
  if (egress !== '' && egress !== 'controlplane' && egress !== 'cluster') {
    errs.push(invalid(ip.child('egressSelectorType'), egress, 'egress selector must be either controlplane or cluster'));
  }

  // claimValidationRules
  const claimRules: { expression: string; message: string; program: Program }[] = [];
  const seenClaims = new Set<string>();
  const seenExprs = new Set<string>();
  (a.claimValidationRules ?? []).forEach((r, i) => {
    const p = under(path, 'claimValidationRules').index(i);
    const claim = r.claim ?? '';
    const expression = r.expression ?? '';
    if (claim !== '' && expression !== '') errs.push(invalid(p, claim, "claim and expression can't both be set"));
    else if (claim === '' && expression === '') errs.push(required(p, 'claim or expression is required'));
    else if (claim !== '') {
      if ((r.message ?? '') !== '') errs.push(invalid(p.child('message'), r.message, 'may not be specified when claim is set'));
      if (seenClaims.has(claim)) errs.push(duplicate(p.child('claim'), claim));
      seenClaims.add(claim);
    } else {
      if ((r.requiredValue ?? '') !== '') errs.push(invalid(p.child('requiredValue'), r.requiredValue, 'may not be specified when expression is set'));
      if (seenExprs.has(expression)) { errs.push(duplicate(p.child('expression'), expression)); return; }
      seenExprs.add(expression);
      const c = compileExpression(expression, 'claims', true);
      if (c.error !== undefined) { errs.push(compileErr(p.child('expression'), expression, c.error)); return; }
      claimRules.push({ expression, message: r.message ?? '', program: c.program });
    }
  });
  if (claimRules.some((r) => selectsClaim(r.program, 'email_verified'))) state.usesEmailVerified = true;

  // claimMappings
  const mp = under(path, 'claimMappings');
  const m = a.claimMappings;
  const username = validatePrefixed(m.username, mp.child('username'), true, errs);
  if (username !== undefined) {
    state.usesEmail ||= selectsClaim(username, 'email');
    state.usesEmailVerified ||= selectsClaim(username, 'email_verified');
  }
  const groups = validatePrefixed(m.groups, mp.child('groups'), false, errs);
  let uid: Program | undefined;
  const uidClaim = m.uid?.claim ?? '';
  const uidExpr = m.uid?.expression ?? '';
  if (uidClaim !== '' && uidExpr !== '') errs.push(invalid(mp.child('uid'), '', "claim and expression can't both be set"));
  else if (uidExpr !== '') {
    const c = compileExpression(uidExpr, 'claims', false);
    if (c.error !== undefined) errs.push(compileErr(mp.child('uid', 'expression'), uidExpr, c.error));
    else uid = c.program;
  }
  const extra: { key: string; expression: string; program: Program }[] = [];
  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((e, i) => {
    const p = mp.child('extra').index(i);
    const key = e.key ?? '';
    errs.push(...isDomainPrefixedPath(p.child('key'), key));
    if (key !== key.toLowerCase()) errs.push(invalid(p.child('key'), key, 'must be lowercase'));
    if (isKubernetesDomain(key)) errs.push(invalid(p.child('key'), key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (seenKeys.has(key)) { errs.push(duplicate(p.child('key'), key)); return; }
    seenKeys.add(key);
    const expression = e.valueExpression ?? '';
    if (expression === '') { errs.push(required(p.child('valueExpression'), '')); return; }
    const c = compileExpression(expression, 'claims', false);
    if (c.error !== undefined) { errs.push(compileErr(p.child('valueExpression'), expression, c.error)); return; }
    extra.push({ key, expression, program: c.program });
  });
  if (extra.some((x) => selectsClaim(x.program, 'email_verified'))) state.usesEmailVerified = true;
  if (state.usesEmail && !state.usesEmailVerified) {
    errs.push(invalid(mp.child('username', 'expression'), m.username.expression ?? '',
      'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression'));
  }

  // userValidationRules
  const userRules: { expression: string; message: string; program: Program }[] = [];
  const seenUserExprs = new Set<string>();
  (a.userValidationRules ?? []).forEach((r, i) => {
    const p = under(path, 'userValidationRules').index(i).child('expression');
    const expression = r.expression ?? '';
    if (expression === '') { errs.push(required(p, '')); return; }
    if (seenUserExprs.has(expression)) { errs.push(duplicate(p, expression)); return; }
    seenUserExprs.add(expression);
    const c = compileExpression(expression, 'user', true);
    if (c.error !== undefined) { errs.push(compileErr(p, expression, c.error)); return; }
    userRules.push({ expression, message: r.message ?? '', program: c.program });
  });

  return {
    errors: errs,
    mappings: {
      ...(username !== undefined ? { username } : {}), ...(groups !== undefined ? { groups } : {}), ...(uid !== undefined ? { uid } : {}),
      extra, claimValidationRules: claimRules, userValidationRules: userRules,
    },
  };
}

/** The whole file; `disallowed` as for validateJWTAuthenticator (kube passes none here). */
export function validateAuthenticationConfiguration(c: AuthenticationConfiguration, disallowed: readonly string[] = []): FieldError[] {
  const root = FieldPath.root('jwt');
  const jwt = c.jwt ?? [];
  if (jwt.length > MAX_JWT_AUTHENTICATORS) return [tooMany(root, jwt.length, MAX_JWT_AUTHENTICATORS)];
  const errs: FieldError[] = [];
  const issuers = new Set<string>();
  const discoveries = new Set<string>();
  jwt.forEach((a, i) => {
    const p = root.index(i);
    errs.push(...validateJWTAuthenticator(a, p, disallowed).errors);
    const url = a.issuer.url ?? '';
    if (issuers.has(url)) errs.push(duplicate(p.child('issuer', 'url'), url));
    issuers.add(url);
    const d = a.issuer.discoveryURL ?? '';
    if (d !== '') {
      if (discoveries.has(d)) errs.push(duplicate(p.child('issuer', 'discoveryURL'), d));
      discoveries.add(d);
    }
  });
  const anon = c.anonymous;
  if (anon !== undefined && !anon.enabled && (anon.conditions ?? []).length > 0) {
    // Go prints the internal structs, whose field has no JSON tag.
    const shown = JSON.stringify((anon.conditions ?? []).map((x) => ({ Path: x.path ?? '' })));
    errs.push(invalid(FieldPath.root('anonymous').child('conditions'), new GoSyntax(shown), 'enabled should be set to true when conditions are defined'));
  }
  return errs;
}

export { forbidden };
