// The authorization and webhook token authentication flags: --authorization-mode with
// --authorization-webhook-*, or --authorization-config (never both), and
// --authentication-token-webhook-*; validated as kube-apiserver validates them at start-up.
// Counterpart of pkg/kubeapiserver/options/authorization.go (Validate, AreLegacyFlagsSet) and the
// webhook part of pkg/kubeapiserver/options/authentication.go.
import {
  authorizationConfigurationFromFlags, type LegacyWebhookFlags,
} from '../authz/config.ts';
import { loadAuthorizationConfigurationFile, type LoadedAuthorizationConfiguration } from '../authz/authorization-config.ts';
import { isSupportedMode, validateAuthorizationModes, type AuthorizationMode } from '../authz/modes.ts';

export interface AuthorizationFlags {
  /** The chain as configured (by --authorization-config, or built from the legacy flags). */
  readonly config: LoadedAuthorizationConfiguration;
  /** Its authorizer types in order (kapi's supported ones). */
  readonly modes: readonly AuthorizationMode[];
  /** --authorization-config, reloaded while the server runs. */
  readonly configFile?: string;
  /** --authorization-policy-file: the ABAC mode's policies ('' when not given). */
  readonly policyFile: string;
}

export interface TokenWebhookFlags {
  readonly configFile: string;
  readonly version: string;
  readonly cacheTTLMs: number;
}

const LEGACY_FLAGS = [
  'authorization-mode', 'authorization-webhook-config-file', 'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl',
];

/**
 * BuiltInAuthorizationOptions.Validate: `errs` receives kube's messages. `str`, `num` and `list`
 * read a flag's value (its default when not given); `changed` says whether it was given.
 */
export function parseAuthorizationFlags(
  str: (n: string) => string, num: (n: string) => number, list: (n: string) => string[], changed: (n: string) => boolean, errs: string[],
): AuthorizationFlags {
  const configFile = str('authorization-config');
  const policyFile = str('authorization-policy-file');
  if (configFile !== '') {
    if (LEGACY_FLAGS.some(changed)) {
      errs.push('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
    } else {
      try {
        const config = loadAuthorizationConfigurationFile(configFile);
        return { config, modes: config.authorizers.map((a) => a.type).filter(isSupportedMode), configFile, policyFile };
      } catch (err) {
        errs.push((err as Error).message);
      }
    }
    return { config: { authorizers: [], matchConditions: new Map() }, modes: [], policyFile };
  }
  // Complete(): an empty list (--authorization-mode=) means AlwaysAllow, as when none is given.
  const given = list('authorization-mode');
  const modes = given.length === 0 ? ['AlwaysAllow'] : given;
  const webhook: LegacyWebhookFlags = {
    configFile: str('authorization-webhook-config-file'), version: str('authorization-webhook-version'),
    authorizedTTLMs: num('authorization-webhook-cache-authorized-ttl'), unauthorizedTTLMs: num('authorization-webhook-cache-unauthorized-ttl'),
  };
  errs.push(...validateAuthorizationModes(modes, webhook.configFile, policyFile));
  return { config: { ...authorizationConfigurationFromFlags(modes, webhook), matchConditions: new Map() }, modes: modes.filter(isSupportedMode), policyFile };
}

/** --authentication-token-webhook-*: undefined when no config file is given. */
export function parseTokenWebhookFlags(str: (n: string) => string, num: (n: string) => number): TokenWebhookFlags | undefined {
  const configFile = str('authentication-token-webhook-config-file');
  if (configFile === '') return undefined;
  return { configFile, version: str('authentication-token-webhook-version'), cacheTTLMs: num('authentication-token-webhook-cache-ttl') };
}
