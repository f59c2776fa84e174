// `kapi serve` flags: kube-apiserver's names, defaults and messages (pflag syntax and errors,
// Go durations, CIDR and port-range values), parsed into a typed ServeOptions.
// Counterpart of cmd/kube-apiserver/app/options and github.com/spf13/pflag.
import { isIPv4, isIPv6 } from 'node:net';
import {
  firstIPInRange, parseCIDR, parseDuration, parsePortRange, type CIDR, type PortRange,
} from './flag-values.ts';
import {
  DEFAULT_TLS_MIN_VERSION, servingTLS, tlsCipherSuites, tlsVersion,
  type CipherSuites, type ServingTLS,
} from './tls-options.ts';
import { validateRequestHeaderFlags } from '../authn/request-header.ts';
import { FLAGS, type FlagDef, type Kind } from './flag-table.ts';
import type { AuthorizationMode } from '../authz/modes.ts';
import { parseAuthorizationFlags, parseTokenWebhookFlags, type AuthorizationFlags, type TokenWebhookFlags } from './authorization-flags.ts';
import { auditOptions } from './audit-flags.ts';
import type { AuditOptions } from '../audit/auditor.ts';
import { validateAdmissionPlugins } from '../controlplane/admission.ts';
import { parseAuthnFlags, type AuthnFlagOptions } from './authn-flags.ts';
import { parseWatchCacheSizes } from '../storage/cacher/factory.ts';
import { serverRunOptions, type ServerRunOptions } from './server-run-options.ts';
import { DEFAULT_STORAGE_MEDIA_TYPE, isStorageMediaType, STORAGE_MEDIA_TYPES, type StorageMediaType } from '../storage/value-codec.ts';
import { goQuote } from '../apimachinery/goformat/quote.ts';

export type { CIDR, PortRange } from './flag-values.ts';

export type StorageBackend = 'sqlite' | 'etcd3';

export type { EndpointReconcilerType } from './server-run-options.ts';

export interface ServeOptions extends ServerRunOptions {
  readonly securePort: number;
  readonly bindAddress: string;
  /** --advertise-address; undefined: chosen from --bind-address or the host's interfaces. */
  readonly advertiseAddress: string | undefined;
  readonly dataDir: string;
  readonly kubeconfigOut: string | undefined;
  readonly tlsCertFile: string | undefined;
  readonly tlsPrivateKeyFile: string | undefined;
  /** --tls-min-version and --tls-cipher-suites, as Node's TLS server options. */
  readonly servingTLS: ServingTLS;
  /** kube's start-up warnings about the TLS flags (insecure cipher suites). */
  readonly tlsWarnings: readonly string[];
  readonly tokenAuthFile: string | undefined;
  /** --cert-dir: where a serving pair apiserver.crt/apiserver.key is looked for (kube's default /var/run/kubernetes). */
  readonly certDir: string | undefined;
  /** --service-account-issuer, in order: the first signs, all are accepted. */
  readonly serviceAccountIssuers: readonly string[];
  /** --service-account-key-file: PEM files of public keys (or certificates, or private keys) that verify tokens. */
  readonly serviceAccountKeyFiles: readonly string[];
  /** --service-account-jwks-uri. */
  readonly serviceAccountJWKSURI: string | undefined;
  /** --service-account-signing-key-file. */
  readonly serviceAccountSigningKeyFile: string | undefined;
  /** --api-audiences; empty: the service account issuers. */
  readonly apiAudiences: readonly string[];
  /** Run as the `kube-apiserver` command (files in --cert-dir unless --data-dir is given). */
  readonly kubeApiserverCommand: boolean;
  /** Whether --data-dir was given (the kube-apiserver command then keeps its files in --cert-dir). */
  readonly dataDirSet: boolean;
  /** --client-ca-file. */
  readonly clientCAFile: string | undefined;
  /** --proxy-client-cert-file / --proxy-client-key-file: the aggregator's client certificate (used when both are set, as kube). */
  readonly proxyClientCertFile: string | undefined;
  readonly proxyClientKeyFile: string | undefined;
  /** --requestheader-*: front-proxy authentication (header names trimmed, as kube does). */
  readonly requestHeader: {
    readonly clientCAFile: string | undefined;
    readonly allowedNames: readonly string[];
    readonly usernameHeaders: readonly string[];
    readonly uidHeaders: readonly string[];
    readonly groupHeaders: readonly string[];
    readonly extraHeaderPrefixes: readonly string[];
  };
  /** Start-up warnings of the authentication flags. */
  readonly authnWarnings: readonly string[];
  readonly anonymousAuth: boolean;
  /** --authentication-config, --oidc-*, --enable-bootstrap-token-auth and the service account token lifetimes. */
  readonly authn: AuthnFlagOptions;
  /** --allow-privileged: privileged containers (and Windows hostProcess pods) pass validation. */
  readonly allowPrivileged: boolean;
  /** The authorizer types in order (--authorization-mode, or --authorization-config's). */
  readonly authorizationModes: readonly AuthorizationMode[];
  /** The authorizer chain's configuration (webhooks included). */
  readonly authorization: AuthorizationFlags;
  /** --authentication-token-webhook-*; undefined without a config file. */
  readonly tokenWebhook: TokenWebhookFlags | undefined;
  /** Primary range first; a second entry makes the cluster dual-stack. */
  readonly serviceClusterIPRanges: readonly CIDR[];
  /** The first address of the primary range: the ClusterIP of the `kubernetes` Service. */
  readonly apiServerServiceIP: string;
  readonly serviceNodePortRange: PortRange;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  readonly requestTimeoutMs: number;
  /** --min-request-timeout: a watch lasts a random time between this and twice this (seconds). */
  readonly minRequestTimeoutSeconds: number;
  readonly runtimeConfig: Readonly<Record<string, string>>;
  readonly storageBackend: StorageBackend;
  /** --storage-media-type: how built-in kinds are stored (custom resources: always JSON). */
  readonly storageMediaType: StorageMediaType;
  readonly etcdServers: readonly string[];
  readonly etcdCAFile: string | undefined;
  readonly etcdCertFile: string | undefined;
  readonly etcdKeyFile: string | undefined;
  readonly etcdPrefix: string;
  readonly etcdCompactionIntervalMs: number;
  readonly eventTTLMs: number;
  readonly enableAdmissionPlugins: readonly string[];
  readonly disableAdmissionPlugins: readonly string[];
  /** --admission-control-config-file; '' when none. */
  readonly admissionControlConfigFile: string;
  /** --default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds (DefaultTolerationSeconds). */
  readonly defaultNotReadyTolerationSeconds: number;
  readonly defaultUnreachableTolerationSeconds: number;
  readonly shutdownDelayDurationMs: number;
  /** --audit-*: the policy file and the log and webhook backends. */
  readonly audit: AuditOptions;
  /** --watch-cache and --watch-cache-sizes (resource[.group] → size; 0 turns the cache off for it). */
  readonly watchCache: { readonly enabled: boolean; readonly sizes: ReadonlyMap<string, number> };
  /** --encryption-provider-config: the EncryptionConfiguration file (absent: values stored as encoded). */
  readonly encryptionProviderConfig?: string;
  /** --encryption-provider-config-automatic-reload: re-read the file when it changes. */
  readonly encryptionProviderConfigAutomaticReload?: boolean;
  /** klog verbosity (-v). */
  readonly v: number;
  readonly help: boolean;
}

export class FlagError extends Error {
  override readonly name = 'FlagError';
}


const TYPE_NAME: Readonly<Record<Kind, string>> = {
  int: 'int', float32: 'float32', float64: 'float', string: 'string', bool: '', duration: 'duration', strings: 'strings', map: 'mapStringString', mapNoSplit: 'mapStringString', ip: 'ip',
  level: 'Level', portRange: 'portRange',
};

/** The `--help` text, in pflag's layout. */
export function serveHelp(command = 'kapi serve'): string {
  const rows = FLAGS.map((f) => {
    const names = f.short === undefined ? `      --${f.name}` : `  -${f.short}, --${f.name}`;
    const type = TYPE_NAME[f.kind];
    const showDefault = f.def !== '' && !(f.kind === 'bool' && f.def === 'false');
    return { left: type === '' ? names : `${names} ${type}`, usage: showDefault ? `${f.usage} (default ${f.kind === 'string' ? JSON.stringify(f.def) : f.def})` : f.usage };
  });
  const width = Math.max(...rows.map((r) => r.left.length)) + 3;
  return `Usage:\n  ${command} [flags]\n\nFlags:\n${rows.map((r) => `${r.left.padEnd(width)}${r.usage}`).join('\n')}\n`;
}

// ---- argv parsing (pflag semantics) ----

const BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));
const BY_SHORT = new Map(FLAGS.filter((f) => f.short !== undefined).map((f) => [f.short ?? '', f]));

type Value = number | string | boolean | string[] | Record<string, string> | PortRange;

function parseGoInt(s: string, fn: 'ParseInt' | 'ParseUint'): number {
  const re = fn === 'ParseInt' ? /^[+-]?(0x[0-9a-f]+|0o[0-7]+|0b[01]+|0[0-7]*|[1-9][0-9]*)$/i : /^(0x[0-9a-f]+|0o[0-7]+|0b[01]+|0[0-7]*|[1-9][0-9]*)$/i;
  if (!re.test(s)) throw new Error(`strconv.${fn}: parsing ${JSON.stringify(s)}: invalid syntax`);
  const neg = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  const n = /^0[0-7]+$/.test(body) ? parseInt(body, 8) : Number(body.replace(/^0o/i, '0o'));
  return neg ? -n : n;
}

const BOOLS: Readonly<Record<string, boolean>> = {
  '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false,
};

function convert(f: FlagDef, raw: string, previous: Value | undefined): Value {
  switch (f.kind) {
    case 'int': return parseGoInt(raw, 'ParseInt');
    case 'float32':
    case 'float64': {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim()) || raw.trim() !== raw) {
        throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
      }
      return Number(raw);
    }
    case 'level': return parseGoInt(raw, 'ParseUint');
    case 'string': return raw;
    case 'bool': {
      const b = BOOLS[raw];
      if (b === undefined) throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
      return b;
    }
    case 'duration': return parseDuration(raw);
    case 'ip': {
      const ip = raw.trim();
      if (!isIPv4(ip) && !isIPv6(ip)) throw new Error(`failed to parse IP: ${JSON.stringify(raw)}`);
      return ip;
    }
    case 'portRange': return parsePortRange(raw);
    case 'strings': {
      // The first use replaces the default; repeats append.
      const items = raw === '' ? [] : raw.split(',');
      return Array.isArray(previous) ? [...previous, ...items] : items;
    }
    case 'map': {
      // `previous` is this same flag's earlier value: repeats merge.
      const m: Record<string, string> = { ...(previous as Record<string, string> | undefined) };
      for (const s of raw.split(',')) {
        if (s === '') continue;
        const eq = s.indexOf('=');
        if (eq < 0) m[s.trim()] = '';
        else m[s.slice(0, eq).trim()] = s.slice(eq + 1).trim();
      }
      return m;
    }
    case 'mapNoSplit': {
      // cliflag.MapStringStringNoSplit: one key=value per use, the value may hold commas.
      const eq = raw.indexOf('=');
      if (eq < 0) throw new Error(`malformed pair, expect string=string`);
      return { ...(previous as Record<string, string> | undefined), [raw.slice(0, eq).trim()]: raw.slice(eq + 1).trim() };
    }
  }
}

const display = (f: FlagDef): string => (f.short === undefined ? `--${f.name}` : `-${f.short}, --${f.name}`);

/** Parses argv into flag values by name (only flags that were given) and positional arguments. */
function parseArgs(argv: readonly string[]): { values: Map<string, Value>; positional: string[] } {
  const values = new Map<string, Value>();
  const positional: string[] = [];
  const args = [...argv];
  const set = (f: FlagDef, raw: string): void => {
    try {
      values.set(f.name, convert(f, raw, values.get(f.name)));
    } catch (err) {
      throw new FlagError(`invalid argument ${JSON.stringify(raw)} for ${JSON.stringify(display(f))} flag: ${(err as Error).message}`);
    }
  };
  while (args.length > 0) {
    const s = args.shift() ?? '';
    if (s === '--') { positional.push(...args); break; }
    if (s.startsWith('--')) {
      const body = s.slice(2);
      if (body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${s}`);
      const eq = body.indexOf('=');
      // kube normalizes '_' to '-' in flag names (cliflag.WordSepNormalizeFunc).
      const name = (eq < 0 ? body : body.slice(0, eq)).replaceAll('_', '-');
      const f = BY_NAME.get(name);
      if (f === undefined) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) set(f, body.slice(eq + 1));
      else if (f.kind === 'bool') set(f, 'true');
      else if (args.length > 0) set(f, args.shift() ?? '');
      else throw new FlagError(`flag needs an argument: ${s}`);
      continue;
    }
    if (s.startsWith('-') && s.length > 1) {
      let shorthands = s.slice(1);
      while (shorthands.length > 0) {
        const c = shorthands[0] ?? '';
        const f = BY_SHORT.get(c);
        if (f === undefined) throw new FlagError(`unknown shorthand flag: '${c}' in ${s}`);
        if (shorthands.length > 2 && shorthands[1] === '=') { set(f, shorthands.slice(2)); break; }
        if (f.kind === 'bool') { set(f, 'true'); shorthands = shorthands.slice(1); continue; }
        if (shorthands.length > 1) { set(f, shorthands.slice(1)); break; }
        if (args.length > 0) { set(f, args.shift() ?? ''); break; }
        throw new FlagError(`flag needs an argument: '${c}' in ${s}`);
      }
      continue;
    }
    positional.push(s);
  }
  return { values, positional };
}

function validateServiceRanges(text: string, errs: string[]): CIDR[] {
  const entries = text.split(',');
  if (entries.length > 2) errs.push('--service-cluster-ip-range must not contain more than two entries');
  const ranges: CIDR[] = [];
  entries.slice(0, 2).forEach((e, i) => {
    try {
      ranges.push(parseCIDR(e));
    } catch {
      errs.push(`service-cluster-ip-range[${i}] is not a valid cidr`);
    }
  });
  // No size limit: kube v1.36 checks one (20 host bits) only without MultiCIDRServiceAllocator and
  // DisableAllocatorDualWrite, both GA and locked on.
  if (ranges.length === 2 && ranges[0]?.family === ranges[1]?.family) {
    errs.push('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
  }
  return ranges;
}

/**
 * Parses `kapi serve` arguments (without `serve`). Throws a FlagError with pflag's or
 * kube-apiserver's message: `unknown flag: --foo`, `invalid argument "x" for "--secure-port" flag: ...`,
 * `--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port`, ...
 * Several validation errors are reported together as `[a, b]`.
 */
export function parseServeFlags(argv: readonly string[]): ServeOptions {
  const { values, positional } = parseArgs(argv);
  if (positional.some((a) => a !== '')) {
    throw new FlagError(`"kapi serve" does not take any arguments, got [${positional.map((a) => JSON.stringify(a)).join(' ')}]`);
  }
  const get = (name: string): Value => {
    const v = values.get(name);
    if (v !== undefined) return v;
    const f = BY_NAME.get(name);
    if (f === undefined) throw new Error(`no flag ${name}`);
    if (f.kind === 'mapNoSplit' && f.def === '') return {};
    if (f.def === '' && (f.kind === 'int' || f.kind === 'float32' || f.kind === 'float64' || f.kind === 'duration')) return 0;
    return (f.kind === 'string' || f.kind === 'ip') && f.def === '' ? '' : convert(f, f.def, undefined);
  };
  const str = (n: string): string => get(n) as string;
  const num = (n: string): number => get(n) as number;
  const optional = (n: string): string | undefined => (str(n) === '' ? undefined : str(n));
  const errs: string[] = [];

  const securePort = num('secure-port');
  // Unlike kube-apiserver, 0 is allowed: it picks a free port (tests and embedding need it).
  if (securePort < 0 || securePort > 65535) {
    errs.push(`--secure-port ${securePort} must be between 0 and 65535, inclusive. 0 picks a free port`);
  }
  const ranges = validateServiceRanges(str('service-cluster-ip-range'), errs);
  for (const n of ['max-requests-inflight', 'max-mutating-requests-inflight', 'request-timeout', 'min-request-timeout', 'shutdown-delay-duration']) {
    if (num(n) < 0) errs.push(`--${n} can not be negative value`);
  }
  const run = serverRunOptions((n) => get(n), errs);
  const backend = str('storage-backend');
  if (backend !== 'sqlite' && backend !== 'etcd3') {
    errs.push("--storage-backend invalid, allowed values: sqlite, etcd3. If not specified, it will default to 'sqlite'");
  }
  const storageMediaType = str('storage-media-type');
  if (storageMediaType !== '' && !isStorageMediaType(storageMediaType)) {
    // kube lists the allowed values sorted (sets.List).
    errs.push(`--storage-media-type ${goQuote(storageMediaType)} invalid, allowed values: ${[...STORAGE_MEDIA_TYPES].sort().join(', ')}`);
  }
  const etcdServers = (get('etcd-servers') as string[]).filter((s) => s !== '');
  if (backend === 'etcd3' && etcdServers.length === 0) errs.push('--etcd-servers must be specified');
  const tlsCert = optional('tls-cert-file');
  const tlsKey = optional('tls-private-key-file');
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    errs.push('--tls-cert-file and --tls-private-key-file must be specified together');
  }
  // kube reads these when it starts serving; kapi at once, so that a bad value stops start-up.
  const tlsMinName = str('tls-min-version');
  const cipherNames = (get('tls-cipher-suites') as string[]).filter((c) => c !== '');
  let minVersion = DEFAULT_TLS_MIN_VERSION;
  let suites: CipherSuites | undefined;
  try {
    minVersion = tlsVersion(tlsMinName);
  } catch (err) {
    errs.push(`invalid argument ${JSON.stringify(tlsMinName)} for "--tls-min-version" flag: ${(err as Error).message}`);
  }
  try {
    if (cipherNames.length > 0) suites = tlsCipherSuites(cipherNames);
  } catch (err) {
    errs.push(`invalid argument ${JSON.stringify(cipherNames.join(','))} for "--tls-cipher-suites" flag: ${(err as Error).message}`);
  }
  const list = (n: string): string[] => get(n) as string[];
  const requestHeader = {
    clientCAFile: optional('requestheader-client-ca-file'),
    allowedNames: list('requestheader-allowed-names'),
    usernameHeaders: list('requestheader-username-headers'), uidHeaders: list('requestheader-uid-headers'),
    groupHeaders: list('requestheader-group-headers'), extraHeaderPrefixes: list('requestheader-extra-headers-prefix'),
  };
  const rhCheck = validateRequestHeaderFlags(requestHeader);
  const authn = parseAuthnFlags({ get, given: (n) => values.has(n) }, errs);
  errs.push(...rhCheck.errors);
  const trim = (xs: readonly string[]): string[] => xs.map((x) => x.trim());
  const jwksURI = str('service-account-jwks-uri');
  if (jwksURI !== '') {
    let u: URL | undefined;
    try { u = new URL(jwksURI); } catch { errs.push(`service-account-jwks-uri must be a valid URL: parse ${JSON.stringify(jwksURI)}: invalid URI for request`); }
    if (u !== undefined && u.protocol !== 'https:') errs.push(`service-account-jwks-uri requires https scheme, parsed as: ${jwksURI}`);
  }
  const authorization = parseAuthorizationFlags(str, num, list, (n) => values.has(n), errs);
  const enableAdmission = (get('enable-admission-plugins') as string[]).filter((p) => p !== '');
  const disableAdmission = (get('disable-admission-plugins') as string[]).filter((p) => p !== '');
  errs.push(...validateAdmissionPlugins(enableAdmission, disableAdmission));
  const audit = auditOptions(get, errs);
  let watchCacheSizes = new Map<string, number>();
  try {
    watchCacheSizes = parseWatchCacheSizes(list('watch-cache-sizes').filter((x) => x !== ''));
  } catch (err) {
    errs.push((err as Error).message);
  }
  if (errs.length > 0 && get('help') !== true) throw new FlagError(errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`);

  const primary = ranges[0];
  return {
    securePort,
    bindAddress: str('bind-address'),
    advertiseAddress: optional('advertise-address'),
    dataDir: str('data-dir'),
    kubeconfigOut: optional('kubeconfig-out'),
    tlsCertFile: tlsCert,
    tlsPrivateKeyFile: tlsKey,
    servingTLS: servingTLS(minVersion, suites),
    tlsWarnings: suites?.warnings ?? [],
    tokenAuthFile: optional('token-auth-file'),
    clientCAFile: optional('client-ca-file'),
    proxyClientCertFile: optional('proxy-client-cert-file'),
    proxyClientKeyFile: optional('proxy-client-key-file'),
    certDir: optional('cert-dir'),
    serviceAccountIssuers: list('service-account-issuer').filter((x) => x !== ''),
    serviceAccountKeyFiles: list('service-account-key-file').filter((x) => x !== ''),
    serviceAccountSigningKeyFile: optional('service-account-signing-key-file'),
    serviceAccountJWKSURI: optional('service-account-jwks-uri'),
    apiAudiences: list('api-audiences').filter((x) => x !== ''),
    dataDirSet: values.has('data-dir'),
    kubeApiserverCommand: false,
    requestHeader: {
      ...requestHeader, usernameHeaders: trim(requestHeader.usernameHeaders), uidHeaders: trim(requestHeader.uidHeaders),
      groupHeaders: trim(requestHeader.groupHeaders), extraHeaderPrefixes: trim(requestHeader.extraHeaderPrefixes),
    },
    authnWarnings: [...rhCheck.warnings, ...authn.warnings],
    anonymousAuth: get('anonymous-auth') as boolean,
    authn,
    allowPrivileged: get('allow-privileged') as boolean,
    authorizationModes: authorization.modes, authorization,
    tokenWebhook: parseTokenWebhookFlags(str, num),
    serviceClusterIPRanges: ranges,
    apiServerServiceIP: primary === undefined ? '' : firstIPInRange(primary),
    serviceNodePortRange: get('service-node-port-range') as PortRange,
    maxRequestsInflight: num('max-requests-inflight'),
    maxMutatingRequestsInflight: num('max-mutating-requests-inflight'),
    requestTimeoutMs: num('request-timeout'),
    minRequestTimeoutSeconds: num('min-request-timeout'),
    runtimeConfig: get('runtime-config') as Record<string, string>,
    // As kube-apiserver, --etcd-servers alone selects etcd.
    storageBackend: backend === 'etcd3' || etcdServers.length > 0 ? 'etcd3' : 'sqlite',
    etcdServers,
    etcdCAFile: optional('etcd-cafile'),
    etcdCertFile: optional('etcd-certfile'),
    etcdKeyFile: optional('etcd-keyfile'),
    etcdPrefix: str('etcd-prefix'),
    storageMediaType: isStorageMediaType(storageMediaType) ? storageMediaType : DEFAULT_STORAGE_MEDIA_TYPE,
    etcdCompactionIntervalMs: num('etcd-compaction-interval'),
    eventTTLMs: num('event-ttl'),
    enableAdmissionPlugins: enableAdmission,
    disableAdmissionPlugins: disableAdmission,
    admissionControlConfigFile: str('admission-control-config-file'),
    defaultNotReadyTolerationSeconds: num('default-not-ready-toleration-seconds'),
    defaultUnreachableTolerationSeconds: num('default-unreachable-toleration-seconds'),
    shutdownDelayDurationMs: num('shutdown-delay-duration'),
    ...run,
    audit,
    watchCache: { enabled: get('watch-cache') as boolean, sizes: watchCacheSizes },
    ...(str('encryption-provider-config') !== '' ? { encryptionProviderConfig: str('encryption-provider-config') } : {}),
    ...(get('encryption-provider-config-automatic-reload') === true ? { encryptionProviderConfigAutomaticReload: true } : {}),
    v: num('v'),
    help: get('help') as boolean,
  };
}
