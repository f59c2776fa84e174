// The flags of JWT, OIDC and bootstrap-token authentication and of service account token
// lifetimes, as kube-apiserver parses and validates them at flag time (the rest of kube's checks,
// which read files, run when the server starts: see jwt-authn.ts).
// Counterpart of pkg/kubeapiserver/options/authentication.go (Validate, validateOIDCOptions) and
// the service account checks of cmd/kube-apiserver/app/options (Complete).
import type { FlagDef } from './flag-def.ts';

/** kube's --oidc-* flags, as given. */
export interface OIDCFlags {
  readonly issuerURL: string;
  readonly clientID: string;
  readonly caFile: string;
  readonly usernameClaim: string;
  readonly usernamePrefix: string;
  readonly groupsClaim: string;
  readonly groupsPrefix: string;
  readonly signingAlgs: readonly string[];
  /** In the order given (kube's map order is random). */
  readonly requiredClaims: readonly (readonly [string, string])[];
  /** Whether any --oidc-* flag was given. */
  readonly set: boolean;
}

export interface AuthnFlagOptions {
  /** --authentication-config; '' when none. */
  readonly authenticationConfigFile: string;
  readonly oidc: OIDCFlags;
  /** --enable-bootstrap-token-auth. */
  readonly bootstrapTokenAuth: boolean;
  /** Whether --anonymous-auth was given (it may not be with an `anonymous` section in the file). */
  readonly anonymousAuthSet: boolean;
  /** --service-account-max-token-expiration in seconds; 0: no cap. */
  readonly serviceAccountMaxTokenExpirationSeconds: number;
  /** --service-account-extend-token-expiration. */
  readonly serviceAccountExtendTokenExpiration: boolean;
  /** Start-up warnings of these flags. */
  readonly warnings: readonly string[];
}

/** kube's token lifetimes (pkg/serviceaccount): admission-injected tokens and their extension. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 60 * 60;

export const AUTHN_FLAGS: readonly FlagDef[] = [
  { name: 'authentication-config', kind: 'string', def: '', usage: 'File with Authentication Configuration to configure the JWT Token authenticator or the anonymous authenticator. This flag is mutually exclusive with the --oidc-* flags if the file configures the JWT Token authenticator. This flag is mutually exclusive with --anonymous-auth if the file configures the Anonymous authenticator. kapi reads it at start only (kube reloads it when it changes).' },
  { name: 'enable-bootstrap-token-auth', kind: 'bool', def: 'false', usage: 'Enable to allow secrets of type \'bootstrap.kubernetes.io/token\' in the \'kube-system\' namespace to be used for TLS bootstrapping authentication.' },
  { name: 'oidc-ca-file', kind: 'string', def: '', usage: 'If set, the OpenID server\'s certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host\'s root CA set will be used.' },
  { name: 'oidc-client-id', kind: 'string', def: '', usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.' },
  { name: 'oidc-groups-claim', kind: 'string', def: '', usage: 'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings. This flag is experimental, please see the authentication documentation for further details.' },
  { name: 'oidc-groups-prefix', kind: 'string', def: '', usage: 'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.' },
  { name: 'oidc-issuer-url', kind: 'string', def: '', usage: 'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).' },
  { name: 'oidc-required-claim', kind: 'mapNoSplit', def: '', usage: 'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.' },
  { name: 'oidc-signing-algs', kind: 'strings', def: 'RS256', usage: 'Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported \'alg\' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512. Values are defined by RFC 7518 https://tools.ietf.org/html/rfc7518#section-3.1.' },
  { name: 'oidc-username-claim', kind: 'string', def: 'sub', usage: 'The OpenID claim to use as the user name. Note that claims other than the default (\'sub\') is not guaranteed to be unique and immutable. This flag is experimental, please see the authentication documentation for further details.' },
  { name: 'oidc-username-prefix', kind: 'string', def: '', usage: 'If provided, all usernames will be prefixed with this value. If not provided, username claims other than \'email\' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value \'-\'.' },
  { name: 'service-account-extend-token-expiration', kind: 'bool', def: 'true', usage: 'Turns on projected service account expiration extension during token generation, which helps safe transition from legacy token to bound service account token feature. If this flag is enabled, admission injected tokens would be extended up to 1 year to prevent unexpected failure during transition, ignoring value of service-account-max-token-expiration.' },
  { name: 'service-account-max-token-expiration', kind: 'duration', def: '0s', usage: 'The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.' },
];

/** What the flag parser gives this file: values by name (defaults applied) and which were given. */
export interface FlagAccess {
  get(name: string): unknown;
  given(name: string): boolean;
}

/** Go's time.Duration String() for whole seconds: 2h0m0s, 30m0s, 45s. */
function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
}

/** Parses the flags; pushes kube's flag-time errors onto `errs`. */
export function parseAuthnFlags(f: FlagAccess, errs: string[]): AuthnFlagOptions {
  const str = (n: string): string => f.get(n) as string;
  const oidcNames = AUTHN_FLAGS.map((d) => d.name).filter((n) => n.startsWith('oidc-'));
  const oidc: OIDCFlags = {
    issuerURL: str('oidc-issuer-url'), clientID: str('oidc-client-id'), caFile: str('oidc-ca-file'),
    usernameClaim: str('oidc-username-claim'), usernamePrefix: str('oidc-username-prefix'),
    groupsClaim: str('oidc-groups-claim'), groupsPrefix: str('oidc-groups-prefix'),
    signingAlgs: f.get('oidc-signing-algs') as string[],
    requiredClaims: Object.entries(f.get('oidc-required-claim') as Record<string, string>),
    set: oidcNames.some((n) => f.given(n)),
  };
  const configFile = str('authentication-config');
  if (configFile === '') {
    if (oidc.set && (oidc.issuerURL === '' || oidc.clientID === '')) {
      errs.push('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
    }
  } else if (oidc.set) {
    errs.push('authentication-config file and oidc-* flags are mutually exclusive');
  }
  const warnings: string[] = [];
  const maxMs = f.get('service-account-max-token-expiration') as number;
  const extend = f.get('service-account-extend-token-expiration') as boolean;
  const maxSeconds = Math.floor(maxMs / 1000);
  if (maxMs !== 0) {
    if (maxMs < 3_600_000 || maxSeconds > 2 ** 32) {
      errs.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    } else if (extend) {
      if (maxSeconds < WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS) {
        warnings.push(`service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS} seconds (currently ${goDuration(maxSeconds)})`);
      }
      if (maxSeconds < EXPIRATION_EXTENSION_SECONDS) {
        warnings.push(`service-account-extend-token-expiration is true, enabling tokens valid up to ${EXPIRATION_EXTENSION_SECONDS} seconds, which is longer than service-account-max-token-expiration set to ${goDuration(maxSeconds)}`);
      }
    }
  }
  return {
    authenticationConfigFile: configFile, oidc, bootstrapTokenAuth: f.get('enable-bootstrap-token-auth') as boolean,
    anonymousAuthSet: f.given('anonymous-auth'),
    serviceAccountMaxTokenExpirationSeconds: maxSeconds, serviceAccountExtendTokenExpiration: extend, warnings,
  };
}
