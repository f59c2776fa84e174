// JWT authenticators at start-up: from --authentication-config, or from the legacy --oidc-* flags
// turned into one JWT authenticator as kube turns them; the anonymous section of the file; and
// kube's start-up checks in kube's order, each stopping the server with kube's message.
// Counterpart of pkg/kubeapiserver/options/authentication.go (ToAuthenticationConfig) and the
// JWT part of pkg/kubeapiserver/authenticator/config.go.
import { readFile } from 'node:fs/promises';
import { aggregateMessages, formatFieldError, forbidden } from '../apimachinery/errors/field-errors.ts';
import { withImplicitAudiences } from '../authn/audience-agnostic.ts';
import type { TokenAuthenticator } from '../authn/authenticator.ts';
import { ALL_SIGNING_ALGORITHMS, newJWTAuthenticator, type ClosableTokenAuthenticator } from '../authn/jwt/authenticator.ts';
import { loadAuthenticationConfiguration, type AnonymousAuthConfig, type AuthenticationConfiguration, type JWTAuthenticator } from '../authn/jwt/config.ts';
import { validateAuthenticationConfiguration, validateJWTAuthenticator } from '../authn/jwt/validation.ts';
import { watchAuthenticationConfig } from './authn-reload.ts';
import type { OIDCFlags } from './authn-flags.ts';
import { FlagError, type ServeOptions } from './flags.ts';
import { openError } from './service-account-keys.ts';

export interface JWTAuthentication {
  /**
   * The JWT authenticators as one (each valid only for the API audiences), tried in the file's
   * order; undefined when none is configured. With --authentication-config it follows the file.
   */
  readonly tokenAuthenticator: TokenAuthenticator | undefined;
  /** Whether JWT authenticators were configured at start-up. */
  readonly configured: boolean;
  /** The file's anonymous section; undefined: --anonymous-auth decides. */
  readonly anonymous: AnonymousAuthConfig | undefined;
  /** Stops retrying unreachable providers and watching the file. */
  close(): void;
}

/** The JWT authenticator kube makes of --oidc-* (a username prefix of the issuer URL and '#' unless the claim is email; '-' for none). */
async function fromOIDCFlags(o: OIDCFlags): Promise<JWTAuthenticator> {
  let usernamePrefix = o.usernamePrefix;
  if (o.usernamePrefix === '' && o.usernameClaim !== 'email') usernamePrefix = `${o.issuerURL}#`;
  if (o.usernamePrefix === '-') usernamePrefix = '';
  let certificateAuthority: string | undefined;
  if (o.caFile !== '') {
    try {
      certificateAuthority = await readFile(o.caFile, 'utf8');
    } catch (err) {
      throw new FlagError(openError(o.caFile, err));
    }
  }
  return {
    issuer: { url: o.issuerURL, audiences: [o.clientID], ...(certificateAuthority !== undefined ? { certificateAuthority } : {}) },
    claimMappings: {
      username: { prefix: usernamePrefix, claim: o.usernameClaim },
      ...(o.groupsClaim !== '' ? { groups: { prefix: o.groupsPrefix, claim: o.groupsClaim } } : {}),
    },
    ...(o.requiredClaims.length > 0 ? { claimValidationRules: o.requiredClaims.map(([claim, requiredValue]) => ({ claim, requiredValue })) } : {}),
  };
}

/** The authenticators of `config`'s JWT section; throws a FlagError with kube's message for the first bad one. */
function buildJWTAuthenticators(config: AuthenticationConfiguration, algorithms: readonly string[],
  serviceAccountIssuers: readonly string[], log: (line: string) => void): ClosableTokenAuthenticator[] {
  const built: ClosableTokenAuthenticator[] = [];
  const fail = (why: string): never => {
    for (const b of built) b.close();
    throw new FlagError(why);
  };
  for (const j of config.jwt ?? []) {
    const { errors, mappings } = validateJWTAuthenticator(j, undefined, serviceAccountIssuers);
    if (errors.length > 0) fail(aggregateMessages(errors.map(formatFieldError)));
    // kapi has no --egress-selector-config-file, so there is nothing to look such a dialer up in.
    const egress = j.issuer.egressSelectorType ?? '';
    if (egress !== '') fail(`oidc: egress lookup required with egress selector type ${JSON.stringify(egress)}`);
    const unsupported = algorithms.find((alg) => !(ALL_SIGNING_ALGORITHMS as readonly string[]).includes(alg));
    if (unsupported !== undefined) fail(`oidc: unsupported signing alg: ${JSON.stringify(unsupported)}`);
    built.push(newJWTAuthenticator({ config: j, mappings, signingAlgorithms: algorithms.length > 0 ? algorithms : ['RS256'], log }));
  }
  return built;
}

/** kube's union of the JWT authenticators: the first answer or error ends the search. */
function firstAnswer(authenticators: () => readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token) {
      for (const a of authenticators()) {
        const r = await a.authenticateToken(token);
        if (r !== undefined) return r;
      }
      return undefined;
    },
  };
}

/**
 * Builds the JWT authenticators. `serviceAccountIssuers`: issuers no JWT authenticator may claim.
 * Rejects with a FlagError carrying kube's start-up message. With --authentication-config, the
 * file is then watched and reloaded as kube reloads it (see authn-reload.ts).
 */
export async function jwtAuthentication(
  opts: ServeOptions, serviceAccountIssuers: readonly string[], apiAudiences: readonly string[], log: (line: string) => void,
  apiServerID: string,
): Promise<JWTAuthentication> {
  const a = opts.authn;
  let config: AuthenticationConfiguration = {};
  let algorithms: readonly string[] = ALL_SIGNING_ALGORITHMS;
  if (a.authenticationConfigFile !== '') {
    try {
      config = loadAuthenticationConfiguration(a.authenticationConfigFile);
    } catch (err) {
      throw new FlagError((err as Error).message);
    }
  } else if (a.oidc.issuerURL !== '' && a.oidc.clientID !== '') {
    config = { jwt: [await fromOIDCFlags(a.oidc)] };
    algorithms = a.oidc.signingAlgs;
  }
  if (config.anonymous !== undefined && a.anonymousAuthSet) {
    throw new FlagError(formatFieldError(forbidden('anonymous', '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file')));
  }
  const errs = validateAuthenticationConfiguration(config);
  if (errs.length > 0) throw new FlagError(`invalid authentication configuration: ${aggregateMessages(errs.map(formatFieldError))}`);
  const build = (c: AuthenticationConfiguration): ClosableTokenAuthenticator[] => buildJWTAuthenticators(c, algorithms, serviceAccountIssuers, log);
  let current = build(config);
  const configured = current.length > 0;
  const union = withImplicitAudiences(apiAudiences, firstAnswer(() => current));
  if (a.authenticationConfigFile === '') {
    return { tokenAuthenticator: configured ? union : undefined, configured, anonymous: config.anonymous, close: () => { for (const b of current) b.close(); } };
  }
  const reloader = watchAuthenticationConfig({
    path: a.authenticationConfigFile, initial: config, apiServerID, serviceAccountIssuers, log,
    build: (c) => {
      try {
        return build(c);
      } catch (err) {
        throw new Error((err as Error).message);
      }
    },
    swap: (next) => {
      const old = current;
      current = next;
      return old;
    },
  });
  return {
    tokenAuthenticator: union, configured, anonymous: config.anonymous,
    close: () => { reloader.stop(); for (const b of current) b.close(); },
  };
}
