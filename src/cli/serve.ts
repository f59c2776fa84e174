// Runs a kapi server: certificates and admin token in the data dir, the embedded store, the
// control plane on HTTPS, and the admin kubeconfig written before /readyz turns ok.
// Counterpart of cmd/kube-apiserver/app/server.go (Run).
import { loadEncryptionConfig } from '../storage/value/load.ts';
import { recordEncryptionConfigInUse, ReloadingTransformers } from '../storage/value/dynamic.ts';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { isIPv6 } from 'node:net';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../apimachinery/request/context.ts';
import {
  loadTokenFile, newAdminTokenAuthenticator, newCachedTokenAuthenticator, newRequestAuthenticator, newStaticTokenAuthenticator,
  newTokenUnion, withImplicitAudiences,
} from '../authn/index.ts';
import type { Authenticator, TokenAuthenticator } from '../authn/authenticator.ts';
import { unimplementedEnabledPlugins } from '../controlplane/admission.ts';
import { identityLeaseName } from '../controlplane/identity-lease.ts';
import { newControlPlane, type ControlPlane } from '../controlplane/instance.ts';
import { anonymousAllowedWith } from '../authz/modes.ts';
import { resolveAuthorizers } from '../authz/config.ts';
import { loadWebhookTokenAuthenticator } from '../authn/webhook-token.ts';
import type { ConnectionCredentials, RequestAuthenticator } from '../server/filters/authentication.ts';
import type { Backend } from '../storage/backend.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { recordStorageBackend } from '../storage/metrics.ts';
import { newAuditor } from '../audit/auditor.ts';
import { newServiceAccountTokenAuthenticator, type ServiceAccountTokenGetter } from '../authn/serviceaccount/index.ts';
import { serviceAccountIssuer } from './service-account-keys.ts';
import { podSecurityPolicy } from '../apis/core/pod/security-context.ts';
import { ensureAdminClientCert, ensureAdminToken, ensurePKI } from './certs.ts';
import { clientCertAuthentication } from './client-cert-auth.ts';
import { jwtAuthentication } from './jwt-authn.ts';
import { watchAuthorizationConfig } from './authz-reload.ts';
import { newBootstrapTokenAuthenticator, type SecretGetter } from '../authn/bootstrap-token.ts';
import { loadProxyClientCert } from './proxy-client-cert.ts';
import { FlagError, parseServeFlags, type ServeOptions } from './flags.ts';
import { startDebugSocket, type DebugSocket } from '../server/debug/debug-socket.ts';
import { debugHandlers, newVerbosity } from '../server/debug/profiling.ts';
import { serverURL, writeAdminKubeconfig } from './kubeconfig.ts';

/**
 * The address written to the `kubernetes` endpoints: the bind address unless it is a wildcard or
 * loopback (endpoints may not be loopback), else the host's first non-loopback IPv4, as kube picks it.
 */
function advertiseAddress(bind: string): string | undefined {
  const loopbackOrAny = bind === '0.0.0.0' || bind === '::' || bind.startsWith('127.') || bind === '::1' || bind === 'localhost';
  if (!loopbackOrAny) return bind;
  const all = Object.values(networkInterfaces()).flatMap((addrs) => addrs ?? []).filter((a) => !a.internal);
  // As kube's ChooseHostInterface: an IPv4 address first, else a global IPv6 one.
  return all.find((a) => a.family === 'IPv4')?.address ?? all.find((a) => a.family === 'IPv6' && !a.address.startsWith('fe80:'))?.address;
}

/**
 * kube-apiserver refuses to start when the kubernetes Service (of the primary range's family)
 * could not reach the advertised address (validatePublicIPServiceClusterIPRangeIPFamilies).
 */
function checkAdvertiseFamily(opts: ServeOptions, advertise: string | undefined): void {
  const primary = opts.serviceClusterIPRanges[0];
  if (advertise === undefined || primary === undefined || (primary.family === 6) === isIPv6(advertise)) return;
  throw new FlagError(`service IP family ${JSON.stringify(primary.text)} must match public address family ${JSON.stringify(advertise)}`);
}

/** kube-apiserver's default --cert-dir. */
const KUBE_CERT_DIR = '/var/run/kubernetes';

/** <cert-dir>/apiserver.{crt,key} when both exist (kube's MaybeDefaultWithSelfSignedCerts reuses them). */
async function certDirPair(certDir: string): Promise<{ cert: string; key: string } | undefined> {
  const pair = { cert: join(certDir, 'apiserver.crt'), key: join(certDir, 'apiserver.key') };
  const exists = async (p: string): Promise<boolean> => await access(p).then(() => true, () => false);
  return await exists(pair.cert) && await exists(pair.key) ? pair : undefined;
}

/**
 * The store: a real etcd with --etcd-servers, else the embedded SQLite file in the data dir. The
 * etcd client (grpc-js, the proto parser) loads only when used: a third of the bundle's start-up.
 */
async function openBackend(opts: ServeOptions, dataDir: string): Promise<Backend> {
  if (opts.storageBackend === 'etcd3') {
    const { openEtcdBackend } = await import('../storage/etcd3/etcd3-backend.ts');
    return await openEtcdBackend({
      endpoints: opts.etcdServers, compactionIntervalMs: opts.etcdCompactionIntervalMs,
      ...(opts.etcdCAFile !== undefined ? { caFile: opts.etcdCAFile } : {}),
      ...(opts.etcdCertFile !== undefined ? { certFile: opts.etcdCertFile } : {}),
      ...(opts.etcdKeyFile !== undefined ? { keyFile: opts.etcdKeyFile } : {}),
    });
  }
  return openSqliteBackend({ path: join(dataDir, 'kapi.db'), compactionIntervalMs: opts.etcdCompactionIntervalMs });
}

export interface RunningServer {
  /** https://127.0.0.1:<port> */
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly dataDir: string;
  readonly port: number;
  /** Graceful shutdown: ends watches, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

/**
 * As kube-apiserver: the token authenticators in order, behind one cache of successes. Requests
 * and TokenReviews that name no audience are for the API audiences.
 */
function requestAuthenticator(
  tokens: TokenAuthenticator[], apiAudiences: readonly string[], requestAuthenticators: readonly Authenticator[],
  jwtConfigured: boolean,
): RequestAuthenticator {
  const cached = newCachedTokenAuthenticator(newTokenUnion(tokens));
  const authn = newRequestAuthenticator({ tokenAuthenticators: [cached], requestAuthenticators, anonymous: false, jwtConfigured });
  const forAudiences = (a: readonly string[] | undefined): readonly string[] => (a !== undefined && a.length > 0 ? a : apiAudiences);
  return {
    async authenticate(headers: IncomingHttpHeaders, audiences?: readonly string[], conn?: ConnectionCredentials): Promise<UserInfo | undefined> {
      return (await authn.authenticate({
        headers, audiences: forAudiences(audiences),
        ...(conn !== undefined ? { peerCertificates: conn.peerCertificates, removeHeaders: conn.removeHeaders, headerValues: conn.headerValues } : {}),
      }))?.user;
    },
    async authenticateToken(token: string, audiences: readonly string[]) {
      return await authn.authenticate({ headers: { authorization: `Bearer ${token}` }, audiences: forAudiences(audiences) });
    },
  };
}

/** Starts a server with kube-apiserver-style options (the flags of `kapi serve`). */
export async function runServer(opts: ServeOptions, log: (line: string) => void = () => {}): Promise<RunningServer> {
  const advertise = opts.advertiseAddress ?? advertiseAddress(opts.bindAddress);
  checkAdvertiseFamily(opts, advertise);
  // The kube-apiserver command has no --data-dir of kube's: without one, its files go in --cert-dir.
  const certDir = opts.certDir ?? (opts.kubeApiserverCommand ? KUBE_CERT_DIR : undefined);
  const dataDir = resolve(!opts.dataDirSet && certDir !== undefined && opts.kubeApiserverCommand ? certDir : opts.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const hosts = opts.bindAddress === '0.0.0.0' || opts.bindAddress === '::' ? [] : [opts.bindAddress];
  // As kube: --tls-cert-file, else a pair apiserver.crt/apiserver.key in --cert-dir, else generated.
  const servingPair = opts.tlsCertFile !== undefined && opts.tlsPrivateKeyFile !== undefined
    ? { cert: opts.tlsCertFile, key: opts.tlsPrivateKeyFile } : certDir === undefined ? undefined : await certDirPair(certDir);
  const pki = servingPair !== undefined
    ? { caCert: await readFile(servingPair.cert, 'utf8'), serverCert: await readFile(servingPair.cert, 'utf8'),
      serverKey: await readFile(servingPair.key, 'utf8') }
    : await ensurePKI({ dataDir, ips: [...hosts.filter((h) => /^[\d.:]+$/.test(h)), opts.apiServerServiceIP],
      hosts: hosts.filter((h) => !/^[\d.:]+$/.test(h)) });
  const adminToken = await ensureAdminToken(dataDir);
  const certAuth = await clientCertAuthentication(opts, 'caKey' in pki ? pki : undefined);
  for (const w of opts.authnWarnings) log(`warning: ${w}`);
  const proxyClientCert = await loadProxyClientCert(opts.proxyClientCertFile, opts.proxyClientKeyFile);
  const adminClientCert = 'caKey' in pki && certAuth.trustsOwnCA
    ? await ensureAdminClientCert(dataDir, { cert: pki.caCert, key: pki.caKey }) : undefined;
  // Service account tokens: signed with a key kept in the data dir, checked on every use against
  // the live service account and bound object (looked up in the control plane once it exists).
  const saIssuer = await serviceAccountIssuer(opts, dataDir);
  let tokenGetter: ServiceAccountTokenGetter | undefined;
  // Static tokens know no audience: valid for the API audiences only (kube's default: the issuer).
  const apiAudiences = opts.apiAudiences.length > 0 ? opts.apiAudiences
    : opts.serviceAccountIssuers.length > 0 ? opts.serviceAccountIssuers : [saIssuer.issuer];
  const tokens: TokenAuthenticator[] = [
    withImplicitAudiences(apiAudiences, newAdminTokenAuthenticator(adminToken)),
    newServiceAccountTokenAuthenticator({
      issuer: saIssuer, audiences: apiAudiences,
      getter: { get: async (kind, ns, name) => await tokenGetter?.get(kind, ns, name) },
    }),
  ];
  if (opts.tokenAuthFile !== undefined) {
    const file = await loadTokenFile(opts.tokenAuthFile);
    for (const w of file.warnings) log(`warning: ${w}`);
    tokens.push(withImplicitAudiences(apiAudiences, newStaticTokenAuthenticator(file.tokens)));
  }
  // kube's order after the service accounts: bootstrap tokens, then the JWT authenticators.
  let secretGetter: SecretGetter | undefined;
  if (opts.authn.bootstrapTokenAuth) {
    tokens.push(withImplicitAudiences(apiAudiences, newBootstrapTokenAuthenticator({ get: async (ns, name) => await secretGetter?.get(ns, name) })));
  }
  const saIssuers = opts.serviceAccountIssuers.length > 0 ? opts.serviceAccountIssuers : [saIssuer.issuer];
  const jwt = await jwtAuthentication(opts, saIssuers, apiAudiences, log, identityLeaseName(hostname()));
  if (jwt.tokenAuthenticator !== undefined) tokens.push(jwt.tokenAuthenticator);

  // The webhook token authenticator comes last, as in kube; the authorization webhooks are built
  // (their kubeconfigs read) before anything starts.
  const tokenWebhook = opts.tokenWebhook === undefined ? undefined : await loadWebhookTokenAuthenticator(
    opts.tokenWebhook.configFile, opts.tokenWebhook.version, opts.tokenWebhook.cacheTTLMs, apiAudiences);
  const authorizers = await resolveAuthorizers(opts.authorization.config, {
    matchConditions: opts.authorization.config.matchConditions, policyFile: opts.authorization.policyFile,
  });

  // kube's rule: AlwaysAllow turns anonymous requests off (401); otherwise they are authorized as
  // system:anonymous in system:unauthenticated.
  const anonymous = anonymousAllowedWith(opts.authorizationModes, opts.anonymousAuth);
  if (opts.anonymousAuth && !anonymous) {
    log('warning: AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
  }
  // An anonymous section in --authentication-config replaces the flag (AlwaysAllow does not reset
  // it); its conditions, when given, are the only paths where a request may be anonymous.
  const fileAnonymous = jwt.anonymous;
  const conditions = (fileAnonymous?.conditions ?? []).map((c) => c.path ?? '');
  const anonymousAllowed = fileAnonymous === undefined ? (): boolean => anonymous
    : (path: string): boolean => fileAnonymous.enabled && (conditions.length === 0 || conditions.includes(path));

  // capabilities.AllowPrivileged: process-wide in kube too
  podSecurityPolicy.allowPrivileged = opts.allowPrivileged;
  // As kube, a bad policy file or an unusable log or webhook stops start-up.
  const auditor = await newAuditor(opts.audit, log);
  // As kube, a bad encryption configuration stops start-up before storage is touched.
  const loadedEncryption = opts.encryptionProviderConfig === undefined ? undefined : loadEncryptionConfig(opts.encryptionProviderConfig);
  const encryption = loadedEncryption === undefined || opts.encryptionProviderConfigAutomaticReload !== true || opts.encryptionProviderConfig === undefined
    ? loadedEncryption : new ReloadingTransformers(opts.encryptionProviderConfig, loadedEncryption, identityLeaseName(hostname()));
  if (opts.encryptionProviderConfig !== undefined) recordEncryptionConfigInUse(identityLeaseName(hostname()), opts.encryptionProviderConfig);
  const verbosity = newVerbosity(opts.v);
  const backend = await openBackend(opts, dataDir);
  recordStorageBackend(opts.storageBackend === 'etcd3' ? 'etcd3' : 'sqlite');
  let cp: ControlPlane;
  try {
    cp = await newControlPlane({
      backend, etcdPrefix: opts.etcdPrefix, storageMediaType: opts.storageMediaType,
      authenticator: requestAuthenticator(tokenWebhook === undefined ? tokens : [...tokens, tokenWebhook], apiAudiences, certAuth.authenticators,
        jwt.configured),
      webhookAuthorizers: authorizers.webhooks, ...(authorizers.abac !== undefined ? { abacAuthorizer: authorizers.abac } : {}),
      clusterAuthenticationInfo: certAuth.info,
      ...(proxyClientCert !== undefined ? { proxyClientCert } : {}),
      anonymousAllowed, authorizationModes: opts.authorizationModes,
      maxRequestsInFlight: opts.maxRequestsInflight, maxMutatingRequestsInFlight: opts.maxMutatingRequestsInflight,
      requestTimeoutSeconds: opts.requestTimeoutMs / 1000, minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds, runtimeConfig: opts.runtimeConfig,
      kubernetesServiceIP: opts.apiServerServiceIP, advertiseAddress: advertise,
      serviceClusterIPRange: opts.serviceClusterIPRanges[0] ?? parseServeFlags([]).serviceClusterIPRanges[0]!,
      ...(opts.serviceClusterIPRanges[1] !== undefined ? { secondaryServiceClusterIPRange: opts.serviceClusterIPRanges[1] } : {}),
      serviceNodePortRange: opts.serviceNodePortRange, eventTTLSeconds: opts.eventTTLMs / 1000,
      serviceAccountTokenIssuer: saIssuer, apiAudiences, caCert: pki.caCert,
      ...(opts.serviceAccountJWKSURI !== undefined ? { serviceAccountJWKSURI: opts.serviceAccountJWKSURI } : {}),
      admission: {
        enable: opts.enableAdmissionPlugins, disable: opts.disableAdmissionPlugins, configFile: opts.admissionControlConfigFile,
        defaultNotReadyTolerationSeconds: opts.defaultNotReadyTolerationSeconds, defaultUnreachableTolerationSeconds: opts.defaultUnreachableTolerationSeconds,
      },
      shutdownDelayMs: opts.shutdownDelayDurationMs,
      enablePriorityAndFairness: opts.enablePriorityAndFairness, endpointReconcilerType: opts.endpointReconcilerType,
      shutdownSendRetryAfter: opts.shutdownSendRetryAfter, shutdownWatchTerminationGracePeriodMs: opts.shutdownWatchTerminationGracePeriodMs,
      corsAllowedOrigins: opts.corsAllowedOrigins, hstsDirectives: opts.hstsDirectives,
      goawayChance: opts.disableHTTP2Serving ? 0 : opts.goawayChance,
      ...(auditor !== undefined ? { auditor } : {}),
      watchCache: opts.watchCache,
      ...(encryption !== undefined ? { encryption } : {}),
      // klog's -v: kube's httplog logs every request from level 3 on (/debug/flags/v changes it).
      httpLog: log, verbosity, profiling: opts.profiling,
    });
    tokenGetter = cp.tokenGetter;
    secretGetter = cp.secretGetter;
  } catch (err) {
    jwt.close();
    encryption?.close();
    await backend.close();
    throw err;
  }
  for (const w of opts.tlsWarnings) log(`warning: ${w}`);
  // Default-on plugins of kube's that kapi lacks are skipped; say so rather than pretend.
  const missing = unimplementedEnabledPlugins({ enable: opts.enableAdmissionPlugins, disable: opts.disableAdmissionPlugins });
  if (missing.length > 0) log(`warning: admission plugins kube-apiserver enables by default that kapi does not implement (skipped): ${missing.join(', ')}`);
  const addr = await cp.server.listen({
    port: opts.securePort, host: opts.bindAddress, cert: pki.serverCert, key: pki.serverKey,
    minVersion: opts.servingTLS.minVersion, ciphers: opts.servingTLS.ciphers, clientCAs: certAuth.clientCAs,
    disableHTTP2: opts.disableHTTP2Serving, http2MaxStreamsPerConnection: opts.http2MaxStreamsPerConnection,
  });
  const host = opts.bindAddress === '0.0.0.0' ? '127.0.0.1' : opts.bindAddress === '::' ? '::1' : opts.bindAddress;
  const url = serverURL(host, addr.port);
  const kubeconfigPath = resolve(opts.kubeconfigOut ?? join(dataDir, 'kubeconfig'));
  await writeAdminKubeconfig(kubeconfigPath, {
    server: url, caCert: pki.caCert, token: adminToken, ...(adminClientCert !== undefined ? { clientCert: adminClientCert } : {}),
  });
  try {
    await cp.start(addr.port);
  } catch (err) {
    jwt.close();
    await cp.stop();
    encryption?.close();
    await backend.close();
    throw err;
  }
  const authzReload = opts.authorization.configFile === undefined ? undefined : watchAuthorizationConfig({
    path: opts.authorization.configFile, initial: opts.authorization.config, apiServerID: identityLeaseName(hostname()), log,
    replace: (modes, webhooks) => { cp.replaceAuthorizers(modes, webhooks); },
  });
  let debugSocket: DebugSocket | undefined;
  try {
    if (opts.debugSocketPath !== '') debugSocket = await startDebugSocket(opts.debugSocketPath, debugHandlers(verbosity));
  } catch (err) {
    authzReload?.stop();
    jwt.close();
    await cp.stop();
    encryption?.close();
    await backend.close();
    throw err;
  }
  log(`kapi serving on ${url} (kubeconfig: ${kubeconfigPath})`);
  let closing: Promise<void> | undefined;
  return {
    url, kubeconfigPath, dataDir, port: addr.port,
    close: () => {
      closing ??= (async () => {
        authzReload?.stop();
        await debugSocket?.close();
        jwt.close();
        await cp.stop();
        encryption?.close();
        await backend.close();
      })();
      return closing;
    },
  };
}

export interface StartServerOptions {
  /** kube-apiserver-style flags, e.g. ['--service-cluster-ip-range', '10.96.0.0/12']. */
  readonly flags?: readonly string[];
  /** Where the store, certificates and kubeconfig go; default: a new temporary directory, removed on close. */
  readonly dataDir?: string;
  /** Default 0: any free port. */
  readonly port?: number;
}

/** The library entry: an in-process server for users' own tests. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const temp = options.dataDir === undefined ? await mkdtemp(join(tmpdir(), 'kapi-')) : undefined;
  const flags = ['--secure-port', String(options.port ?? 0), '--data-dir', options.dataDir ?? temp ?? '', ...(options.flags ?? [])];
  let server: RunningServer;
  try {
    server = await runServer(parseServeFlags(flags));
  } catch (err) {
    if (temp !== undefined) await rm(temp, { recursive: true, force: true });
    throw err;
  }
  if (temp === undefined) return server;
  return {
    ...server,
    close: async () => {
      await server.close();
      await rm(temp, { recursive: true, force: true });
    },
  };
}
