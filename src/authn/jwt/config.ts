// --authentication-config: the AuthenticationConfiguration file (apiserver.config.k8s.io v1,
// v1beta1 or v1alpha1, YAML or JSON, decoded strictly) with its JWT authenticators and the
// anonymous authenticator. The types are the wire shape, which the three versions share.
// Counterpart of k8s.io/apiserver/pkg/apis/apiserver/types.go (AuthenticationConfiguration) and
// pkg/kubeapiserver/options/authentication.go (loadAuthenticationConfig).
import { readFileSync } from 'node:fs';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import {
  decodeConfigFile, decodeStrictJSON, walkValue, type Shape,
} from '../../apimachinery/fieldvalidation/index.ts';

export interface PrefixedClaimOrExpression {
  readonly claim?: string;
  /** Absent and '' differ: a claim needs a prefix, '' turns prefixing off. */
  readonly prefix?: string;
  readonly expression?: string;
}
export interface ClaimOrExpression { readonly claim?: string; readonly expression?: string }
export interface ExtraMapping { readonly key?: string; readonly valueExpression?: string }
export interface ClaimValidationRule {
  readonly claim?: string; readonly requiredValue?: string; readonly expression?: string; readonly message?: string;
}
export interface UserValidationRule { readonly expression?: string; readonly message?: string }
export interface Issuer {
  readonly url?: string;
  readonly discoveryURL?: string;
  /** PEM bundle that verifies the issuer's (and discovery URL's) serving certificate. */
  readonly certificateAuthority?: string;
  readonly audiences?: readonly string[];
  readonly audienceMatchPolicy?: string;
  readonly egressSelectorType?: string;
}
export interface JWTAuthenticator {
  readonly issuer: Issuer;
  readonly claimValidationRules?: readonly ClaimValidationRule[];
  readonly claimMappings: {
    readonly username: PrefixedClaimOrExpression;
    readonly groups?: PrefixedClaimOrExpression;
    readonly uid?: ClaimOrExpression;
    readonly extra?: readonly ExtraMapping[];
  };
  readonly userValidationRules?: readonly UserValidationRule[];
}
export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  /** When set, only requests to these exact paths are anonymous. */
  readonly conditions?: readonly { readonly path?: string }[];
}
export interface AuthenticationConfiguration {
  readonly jwt?: readonly JWTAuthenticator[];
  readonly anonymous?: AnonymousAuthConfig;
}

const VERSIONS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);

const str: Shape = { kind: 'scalar', goName: 'string', json: 'string' };
const bool: Shape = { kind: 'scalar', goName: 'bool', json: 'boolean' };
const strPtr: Shape = { kind: 'scalar', goName: '*string', json: 'string' };
const strings: Shape = { kind: 'slice', goName: '[]string', elem: () => str };
const struct = (goName: string, fields: Readonly<Record<string, Shape>>): Shape =>
  ({ kind: 'struct', goName, preserveUnknown: false, fields: (n) => fields[n] });
const slice = (goName: string, elem: Shape): Shape => ({ kind: 'slice', goName: `[]${goName}`, elem: () => elem });

/** The decoding shape of one version (Go type names in type errors name the version's package). */
function configShape(pkg: string): Shape {
  const t = (n: string): string => `${pkg}.${n}`;
  const prefixed = struct(t('PrefixedClaimOrExpression'), { claim: str, prefix: strPtr, expression: str });
  const jwt = struct(t('JWTAuthenticator'), {
    issuer: struct(t('Issuer'), {
      url: str, discoveryURL: str, certificateAuthority: str, audiences: strings,
      audienceMatchPolicy: { kind: 'scalar', goName: t('AudienceMatchPolicyType'), json: 'string' },
      egressSelectorType: { kind: 'scalar', goName: t('EgressSelectorType'), json: 'string' },
    }),
    claimValidationRules: slice(t('ClaimValidationRule'), struct(t('ClaimValidationRule'), {
      claim: str, requiredValue: str, expression: str, message: str,
    })),
    claimMappings: struct(t('ClaimMappings'), {
      username: prefixed, groups: prefixed, uid: struct(t('ClaimOrExpression'), { claim: str, expression: str }),
      extra: slice(t('ExtraMapping'), struct(t('ExtraMapping'), { key: str, valueExpression: str })),
    }),
    userValidationRules: slice(t('UserValidationRule'), struct(t('UserValidationRule'), { expression: str, message: str })),
  });
  return struct(t('AuthenticationConfiguration'), {
    apiVersion: str, kind: str, jwt: slice(t('JWTAuthenticator'), jwt),
    anonymous: struct(t('AnonymousAuthConfig'), {
      enabled: bool, conditions: slice(t('AnonymousAuthCondition'), struct(t('AnonymousAuthCondition'), { path: str })),
    }),
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Decodes the file's text as kube's strict codec does; throws an Error with kube's message. */
export function parseAuthenticationConfiguration(text: string): AuthenticationConfiguration {
  if (text === '') throw new Error('empty config data');
  const isJSON = text.trimStart().startsWith('{');
  const { value, obj, duplicateError: dupError } = decodeConfigFile(text);
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${text}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${text}'`);
  if (!VERSIONS.has(apiVersion) || kind !== 'AuthenticationConfiguration') {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  const shape = configShape(apiVersion.slice(apiVersion.indexOf('/') + 1));
  const problems: string[] = [];
  let typeError: string | undefined;
  if (isJSON) {
    const r = decodeStrictJSON(text, shape);
    problems.push(...r.strictErrors);
    typeError = r.typeError;
  } else {
    const w = walkValue(value, shape, false);
    if (dupError !== undefined) problems.push(dupError);
    problems.push(...w.unknownFields);
    typeError = w.typeError;
  }
  if (typeError !== undefined) throw new Error(typeError);
  if (problems.length > 0) throw new Error(`strict decoding error: ${problems.join(', ')}`);
  return normalize(obj);
}

/** Fills what Go's zero values give: issuer and claimMappings always exist; null lists are absent. */
function normalize(obj: Record<string, unknown>): AuthenticationConfiguration {
  const jwt = Array.isArray(obj['jwt']) ? obj['jwt'] as Record<string, unknown>[] : undefined;
  const anonymous = isObject(obj['anonymous']) ? obj['anonymous'] : undefined;
  return {
    ...(jwt !== undefined ? {
      jwt: jwt.map((j) => {
        const m = isObject(j['claimMappings']) ? j['claimMappings'] : {};
        return {
          ...(j as object),
          issuer: isObject(j['issuer']) ? j['issuer'] : {},
          claimMappings: { ...m, username: isObject(m['username']) ? m['username'] : {} },
        } as JWTAuthenticator;
      }),
    } : {}),
    ...(anonymous !== undefined ? { anonymous: { ...anonymous, enabled: anonymous['enabled'] === true } as AnonymousAuthConfig } : {}),
  };
}

/** Go's *PathError text. */
function openError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied'
    : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
  return `open ${path}: ${why}`;
}

/**
 * Reads and decodes the file. Throws an Error with kube's start-up message:
 * `failed to load authentication configuration from file "<path>": <why>`.
 */
export function loadAuthenticationConfiguration(path: string): AuthenticationConfiguration {
  const fail = (why: string): never => { throw new Error(`failed to load authentication configuration from file ${goQuote(path)}: ${why}`); };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    fail(openError(path, err));
  }
  try {
    return parseAuthenticationConfiguration(text);
  } catch (err) {
    return fail((err as Error).message);
  }
}
