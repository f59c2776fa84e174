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
import type { OIDCFlags } from './authn-flags.ts';
import { FlagError, type ServeOptions } from './flags.ts';
import { openError } from './service-account-keys.ts';

export interface JWTAuthentication {
  /** One per JWT authenticator, in the file's order; each valid only for the API audiences. */
  readonly tokenAuthenticators: readonly TokenAuthenticator[];
  /** The file's anonymous section; undefined: --anonymous-auth decides. */
  readonly anonymous: AnonymousAuthConfig | undefined;
  /** Stops retrying unreachable providers. */
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

/**
 * Builds the JWT authenticators. `serviceAccountIssuers`: issuers no JWT authenticator may claim.
 * Rejects with a FlagError carrying kube's start-up message.
 */
export async function jwtAuthentication(
  opts: ServeOptions, serviceAccountIssuers: readonly string[], apiAudiences: readonly string[], log: (line: string) => void,
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
  const built: ClosableTokenAuthenticator[] = [];
  const close = (): void => { for (const b of built) b.close(); };
  for (const j of config.jwt ?? []) {
    const { errors, mappings } = validateJWTAuthenticator(j, undefined, serviceAccountIssuers);
    if (errors.length > 0) { close(); throw new FlagError(aggregateMessages(errors.map(formatFieldError))); }
    // kapi has no --egress-selector-config-file, so there is nothing to look such a dialer up in.
    const egress = j.issuer.egressSelectorType ?? '';
    if (egress !== '') { close(); throw new FlagError(`oidc: egress lookup required with egress selector type ${JSON.stringify(egress)}`); }
    const unsupported = algorithms.find((alg) => !(ALL_SIGNING_ALGORITHMS as readonly string[]).includes(alg));
    if (unsupported !== undefined) { close(); throw new FlagError(`oidc: unsupported signing alg: ${JSON.stringify(unsupported)}`); }
    built.push(newJWTAuthenticator({ config: j, mappings, signingAlgorithms: algorithms.length > 0 ? algorithms : ['RS256'], log }));
  }
  return {
    tokenAuthenticators: built.map((b) => withImplicitAudiences(apiAudiences, b)),
    anonymous: config.anonymous,
    close,
  };
}
