import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseServeFlags, serveHelp } from './flags.ts';
import { CORS_ALLOWED_ORIGINS_HELP as CORS_HELP } from '../server/filters/cors.ts';

describe('parseServeFlags defaults', () => {
  it('matches kube-apiserver defaults (kapi storage and paths)', () => {
    assert.deepEqual(parseServeFlags([]), {
      securePort: 6443, bindAddress: '127.0.0.1', advertiseAddress: undefined, dataDir: './.kapi', kubeconfigOut: undefined, tlsCertFile: undefined,
      tlsPrivateKeyFile: undefined, tokenAuthFile: undefined, anonymousAuth: true,
      authn: {
        authenticationConfigFile: '', bootstrapTokenAuth: false, anonymousAuthSet: false,
        serviceAccountMaxTokenExpirationSeconds: 0, serviceAccountExtendTokenExpiration: true, warnings: [],
        oidc: { issuerURL: '', clientID: '', caFile: '', usernameClaim: 'sub', usernamePrefix: '', groupsClaim: '', groupsPrefix: '', signingAlgs: ['RS256'], requiredClaims: [], set: false },
      },
      allowPrivileged: false, authorizationModes: ['AlwaysAllow'],
      authorization: { config: { authorizers: [{ type: 'AlwaysAllow', name: 'alwaysallow' }], matchConditions: new Map() }, modes: ['AlwaysAllow'], policyFile: '' },
      tokenWebhook: undefined,
      serviceClusterIPRanges: [{ ip: '10.0.0.0', prefix: 24, family: 4, text: '10.0.0.0/24' }], apiServerServiceIP: '10.0.0.1',
      serviceNodePortRange: { base: 30000, size: 2768 }, maxRequestsInflight: 400, maxMutatingRequestsInflight: 200,
      requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 1800, runtimeConfig: {}, storageBackend: 'sqlite', storageMediaType: 'application/vnd.kubernetes.protobuf', etcdServers: [], etcdCAFile: undefined, etcdCertFile: undefined, etcdKeyFile: undefined, etcdPrefix: '/registry',
      etcdCompactionIntervalMs: 300_000, eventTTLMs: 3_600_000, enableAdmissionPlugins: [], disableAdmissionPlugins: [], admissionControlConfigFile: '', defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300,
      shutdownDelayDurationMs: 0, watchCache: { enabled: true, sizes: new Map() }, v: 0, help: false,
      shutdownWatchTerminationGracePeriodMs: 0, shutdownSendRetryAfter: false, enablePriorityAndFairness: true, endpointReconcilerType: 'lease',
      corsAllowedOrigins: [], hstsDirectives: [],
      goawayChance: 0, disableHTTP2Serving: false, http2MaxStreamsPerConnection: 0, profiling: true, debugSocketPath: '',
      audit: { policyFile: undefined, log: undefined, webhook: undefined },
      // kube's default minimum TLS 1.2 and Go's default suites (then TLS 1.3's, which Go does not let one configure)
      servingTLS: { minVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:'
        + 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:'
        + 'ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256' },
      tlsWarnings: [], clientCAFile: undefined, proxyClientCertFile: undefined, proxyClientKeyFile: undefined, authnWarnings: [], certDir: undefined, serviceAccountIssuers: [], serviceAccountKeyFiles: [],
      serviceAccountSigningKeyFile: undefined, serviceAccountJWKSURI: undefined, apiAudiences: [], dataDirSet: false, kubeApiserverCommand: false,
      requestHeader: { clientCAFile: undefined, allowedNames: [], usernameHeaders: [], uidHeaders: [], groupHeaders: [], extraHeaderPrefixes: [] },
    });
  });
});

describe('parseServeFlags syntax', () => {
  const cases: { name: string; argv: string[]; check: (o: ReturnType<typeof parseServeFlags>) => unknown; want: unknown }[] = [
    { name: '--flag=value', argv: ['--secure-port=7443'], check: (o) => o.securePort, want: 7443 },
    { name: '--flag value', argv: ['--secure-port', '7443'], check: (o) => o.securePort, want: 7443 },
    { name: 'underscore is normalized', argv: ['--secure_port=7443'], check: (o) => o.securePort, want: 7443 },
    { name: 'hex int as Go accepts', argv: ['--max-requests-inflight=0x10'], check: (o) => o.maxRequestsInflight, want: 16 },
    { name: 'bool without value', argv: ['--anonymous-auth'], check: (o) => o.anonymousAuth, want: true },
    { name: 'bool =false', argv: ['--anonymous-auth=false'], check: (o) => o.anonymousAuth, want: false },
    { name: 'bool =0', argv: ['--anonymous-auth=0'], check: (o) => o.anonymousAuth, want: false },
    { name: 'allow-privileged', argv: ['--allow-privileged'], check: (o) => o.allowPrivileged, want: true },
    { name: 'request timeout', argv: ['--request-timeout', '1m30s'], check: (o) => o.requestTimeoutMs, want: 90_000 },
    { name: 'bind address', argv: ['--bind-address=0.0.0.0'], check: (o) => o.bindAddress, want: '0.0.0.0' },
    { name: '-v 4', argv: ['-v', '4'], check: (o) => o.v, want: 4 },
    { name: 'CORS origins', argv: ['--cors-allowed-origins', '//example\\.com(:|$),^https://a\\.org$'], check: (o) => o.corsAllowedOrigins,
      want: ['//example\\.com(:|$)', '^https://a\\.org$'] },
    { name: 'HSTS directives', argv: ['--strict-transport-security-directives=max-age=31536000,includeSubDomains,preload'], check: (o) => o.hstsDirectives,
      want: ['max-age=31536000', 'includeSubDomains', 'preload'] },
    { name: 'priority and fairness off', argv: ['--enable-priority-and-fairness=false'], check: (o) => o.enablePriorityAndFairness, want: false },
    { name: 'in-flight limits of 0 without priority and fairness', argv: ['--enable-priority-and-fairness=false', '--max-requests-inflight=0',
      '--max-mutating-requests-inflight=0'], check: (o) => o.maxRequestsInflight, want: 0 },
    { name: 'endpoint reconciler none', argv: ['--endpoint-reconciler-type=none'], check: (o) => o.endpointReconcilerType, want: 'none' },
    { name: 'shutdown flags', argv: ['--shutdown-send-retry-after', '--shutdown-watch-termination-grace-period=5s'],
      check: (o) => [o.shutdownSendRetryAfter, o.shutdownWatchTerminationGracePeriodMs], want: [true, 5000] },
    { name: 'goaway chance', argv: ['--goaway-chance=0.001'], check: (o) => o.goawayChance, want: 0.001 },
    { name: 'the largest goaway chance', argv: ['--goaway-chance', '.02'], check: (o) => o.goawayChance, want: 0.02 },
    { name: 'HTTP/2 flags', argv: ['--disable-http2-serving', '--http2-max-streams-per-connection=1000'],
      check: (o) => [o.disableHTTP2Serving, o.http2MaxStreamsPerConnection], want: [true, 1000] },
    // kube accepts a negative limit: its default applies.
    { name: 'negative HTTP/2 stream limit', argv: ['--http2-max-streams-per-connection=-1'], check: (o) => o.http2MaxStreamsPerConnection, want: -1 },
    { name: 'profiling off, a debug socket', argv: ['--profiling=false', '--debug-socket-path=/run/kapi-debug.sock'],
      check: (o) => [o.profiling, o.debugSocketPath], want: [false, '/run/kapi-debug.sock'] },
    { name: 'contention profiling off is accepted', argv: ['--contention-profiling=false'], check: (o) => o.profiling, want: true },
    { name: '-v=4', argv: ['-v=4'], check: (o) => o.v, want: 4 },
    { name: '-v4', argv: ['-v4'], check: (o) => o.v, want: 4 },
    { name: '--v=2', argv: ['--v=2'], check: (o) => o.v, want: 2 },
    { name: '-h', argv: ['-h'], check: (o) => o.help, want: true },
    { name: 'string slices split and repeat', argv: ['--enable-admission-plugins=NamespaceLifecycle,LimitRanger', '--enable-admission-plugins', 'ResourceQuota'],
      check: (o) => o.enableAdmissionPlugins, want: ['NamespaceLifecycle', 'LimitRanger', 'ResourceQuota'] },
    { name: 'disabling a plugin kapi does not implement: it is off already', argv: ['--disable-admission-plugins=PodSecurity,ValidatingAdmissionWebhook,Priority'],
      check: (o) => o.disableAdmissionPlugins, want: ['PodSecurity', 'ValidatingAdmissionWebhook', 'Priority'] },
    { name: 'the Node authorizer is a mode', argv: ['--authorization-mode=Node,RBAC'], check: (o) => o.authorizationModes, want: ['Node', 'RBAC'] },
    { name: 'the default toleration seconds', argv: ['--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds=-1'],
      check: (o) => [o.defaultNotReadyTolerationSeconds, o.defaultUnreachableTolerationSeconds], want: [60, -1] },
    { name: 'the admission configuration file', argv: ['--admission-control-config-file=/etc/kapi/admission.yaml'],
      check: (o) => o.admissionControlConfigFile, want: '/etc/kapi/admission.yaml' },
    { name: 'plugins kapi now implements are accepted', argv: ['--enable-admission-plugins=NodeRestriction,AlwaysPullImages,PodNodeSelector'],
      check: (o) => o.enableAdmissionPlugins, want: ['NodeRestriction', 'AlwaysPullImages', 'PodNodeSelector'] },
    { name: 'request-header names are trimmed', argv: ['--requestheader-username-headers= X-Remote-User ,X-User'],
      check: (o) => o.requestHeader.usernameHeaders, want: ['X-Remote-User', 'X-User'] },
    { name: 'a username header list without X-Remote-User warns', argv: ['--requestheader-username-headers=X-User'],
      check: (o) => o.authnWarnings, want: ['--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work'] },
    { name: 'runtime config merges', argv: ['--runtime-config=api/all=false, v1=true', '--runtime-config=batch/v1'],
      check: (o) => o.runtimeConfig, want: { 'api/all': 'false', v1: 'true', 'batch/v1': '' } },
    { name: 'etcd backend', argv: ['--storage-backend=etcd3', '--etcd-servers=http://a:2379,http://b:2379'],
      check: (o) => [o.storageBackend, o.etcdServers], want: ['etcd3', ['http://a:2379', 'http://b:2379']] },
    { name: 'an IPv6 range', argv: ['--service-cluster-ip-range=fd00::/108'],
      check: (o) => [o.serviceClusterIPRanges.map((r) => r.text), o.apiServerServiceIP], want: [['fd00::/108'], 'fd00::1'] },
    // kube v1.36 takes ranges of any size (its check of 20 host bits is off with MultiCIDRServiceAllocator)
    { name: 'an IPv4 range of more than 20 host bits', argv: ['--service-cluster-ip-range=10.0.0.0/8'],
      check: (o) => [o.serviceClusterIPRanges.map((r) => r.text), o.apiServerServiceIP], want: [['10.0.0.0/8'], '10.0.0.1'] },
    { name: 'an IPv6 /64', argv: ['--service-cluster-ip-range=fd00::/64'],
      check: (o) => [o.serviceClusterIPRanges.map((r) => r.text), o.apiServerServiceIP], want: [['fd00::/64'], 'fd00::1'] },
    { name: 'a dual-stack range: the primary family names the kubernetes service', argv: ['--service-cluster-ip-range=fd00::/108,10.96.0.0/16'],
      check: (o) => [o.serviceClusterIPRanges.map((r) => r.text), o.apiServerServiceIP], want: [['fd00::/108', '10.96.0.0/16'], 'fd00::1'] },
    { name: 'watch cache on by default', argv: [], check: (o) => [o.watchCache.enabled, [...o.watchCache.sizes]], want: [true, []] },
    { name: 'watch cache sizes by resource[.group]', argv: ['--watch-cache=false', '--watch-cache-sizes=pods#0,deployments.apps#100'],
      check: (o) => [o.watchCache.enabled, [...o.watchCache.sizes]], want: [false, [['pods', 0], ['deployments.apps', 100]]] },
    { name: 'node port range', argv: ['--service-node-port-range=20000-20010'], check: (o) => o.serviceNodePortRange, want: { base: 20000, size: 11 } },
    // cliflag.MapStringStringNoSplit: one pair per use, commas stay in the value; repeats add.
    { name: 'oidc required claims', argv: ['--oidc-issuer-url=https://a', '--oidc-client-id=b', '--oidc-required-claim', 'a=b,c', '--oidc-required-claim', ' x = y '],
      check: (o) => o.authn.oidc.requiredClaims, want: [['a', 'b,c'], ['x', 'y']] },
    { name: 'whether --anonymous-auth was given', argv: ['--anonymous-auth=true'], check: (o) => o.authn.anonymousAuthSet, want: true },
    { name: 'a max token expiration shorter than the extension warns as kube', argv: ['--service-account-max-token-expiration=2h'],
      check: (o) => [o.authn.serviceAccountMaxTokenExpirationSeconds, o.authnWarnings],
      want: [7200, ['service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 2h0m0s']] },
    { name: 'no warning without the extension', argv: ['--service-account-max-token-expiration=2h', '--service-account-extend-token-expiration=false'],
      check: (o) => o.authnWarnings, want: [] },
    { name: 'durations', argv: ['--event-ttl=2h', '--etcd-compaction-interval=0', '--shutdown-delay-duration=5s'],
      check: (o) => [o.eventTTLMs, o.etcdCompactionIntervalMs, o.shutdownDelayDurationMs], want: [7_200_000, 0, 5000] },
    { name: 'files', argv: ['--tls-cert-file=a.crt', '--tls-private-key-file=a.key', '--token-auth-file=t.csv', '--kubeconfig-out=k'],
      check: (o) => [o.tlsCertFile, o.tlsPrivateKeyFile, o.tokenAuthFile, o.kubeconfigOut], want: ['a.crt', 'a.key', 't.csv', 'k'] },
    { name: 'an empty mode list is AlwaysAllow (kube\'s Complete)', argv: ['--authorization-mode='], check: (o) => o.authorizationModes, want: ['AlwaysAllow'] },
    { name: 'audit off by default', argv: [], check: (o) => o.audit, want: { policyFile: undefined, log: undefined, webhook: undefined } },
    { name: 'audit log with kube\'s defaults', argv: ['--audit-policy-file=p.yaml', '--audit-log-path=-'],
      check: (o) => [o.audit.policyFile, o.audit.log?.path, o.audit.log?.format, o.audit.log?.mode, o.audit.log?.maxSizeMB, o.audit.log?.maxBackups,
        o.audit.log?.maxAgeDays, o.audit.log?.batch.maxBatchSize, o.audit.log?.truncate.maxEventSize],
      want: ['p.yaml', '-', 'json', 'blocking', 100, 100, 366, 1, 102400] },
    { name: 'audit webhook with kube\'s defaults', argv: ['--audit-webhook-config-file=k'],
      check: (o) => [o.audit.webhook?.mode, o.audit.webhook?.batch, o.audit.webhook?.initialBackoffMs],
      want: ['batch', { bufferSize: 10000, maxBatchSize: 400, maxBatchWaitMs: 30000, throttleEnable: true, throttleQPS: 10, throttleBurst: 15 }, 10000] },
    { name: 'authorization modes in order', argv: ['--authorization-mode=RBAC,AlwaysDeny'], check: (o) => o.authorizationModes, want: ['RBAC', 'AlwaysDeny'] },
    { name: 'authorization modes repeat', argv: ['--authorization-mode=RBAC', '--authorization-mode', 'AlwaysAllow'],
      check: (o) => o.authorizationModes, want: ['RBAC', 'AlwaysAllow'] },
    { name: 'tls min version', argv: ['--tls-min-version=VersionTLS13'], check: (o) => o.servingTLS.minVersion, want: 'TLSv1.3' },
    { name: 'tls cipher suites in Go names', argv: ['--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305'],
      check: (o) => o.servingTLS.ciphers, want: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-CHACHA20-POLY1305:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256' },
    { name: 'tls cipher suites with TLS 1.3 minimum (accepted, as kube does)', argv: ['--tls-min-version=VersionTLS13', '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'],
      check: (o) => o.servingTLS.minVersion, want: 'TLSv1.3' },
    { name: 'insecure cipher suite warns', argv: ['--tls-cipher-suites=TLS_RSA_WITH_AES_128_GCM_SHA256'],
      check: (o) => o.tlsWarnings, want: ["Use of insecure cipher 'TLS_RSA_WITH_AES_128_GCM_SHA256' detected."] },
    { name: 'empty positional is ignored', argv: [''], check: (o) => o.securePort, want: 6443 },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.check(parseServeFlags(c.argv)), c.want));
});

describe('parseServeFlags errors', () => {
  const cases: { name: string; argv: string[]; want: string }[] = [
    // The messages of kube-apiserver v1.36 (asked of the oracle).
    { name: 'in-flight limits adding up to 0 with priority and fairness', argv: ['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'],
      want: 'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive' },
    { name: 'negative watch termination grace period', argv: ['--shutdown-watch-termination-grace-period=-1s'],
      want: 'shutdown-watch-termination-grace-period, if provided, can not be a negative value' },
    { name: 'HSTS directive kube does not know', argv: ['--strict-transport-security-directives=max-age=1,foo'],
      want: '--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information' },
    { name: 'CORS origin not pinned at both ends', argv: ['--cors-allowed-origins=example\\.com'],
      want: `--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start/end of host in the origin header, help: ${CORS_HELP}` },
    { name: 'empty CORS origin', argv: ['--cors-allowed-origins=,//a(:|$)'], want: `empty value in --cors-allowed-origins, help: ${CORS_HELP}` },
    { name: 'unknown endpoint reconciler', argv: ['--endpoint-reconciler-type=bogus'], want: 'Reconciler not implemented: bogus' },
    { name: 'master-count is refused by name', argv: ['--endpoint-reconciler-type=master-count'],
      want: '--endpoint-reconciler-type master-count is not implemented by kapi (use lease or none)' },
    { name: 'unknown flag', argv: ['--foo'], want: 'unknown flag: --foo' },
    { name: 'uid headers without X-Remote-Uid', argv: ['--requestheader-uid-headers=X-Uid'],
      want: '--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work' },
    { name: 'a blank group header', argv: ['--requestheader-group-headers=X-Remote-Group, '], want: 'empty value in "requestheader-group-headers"' },
    { name: 'unknown flag with value', argv: ['--foo=bar'], want: 'unknown flag: --foo' },
    { name: 'unknown shorthand', argv: ['-x'], want: "unknown shorthand flag: 'x' in -x" },
    { name: 'missing value', argv: ['--secure-port'], want: 'flag needs an argument: --secure-port' },
    { name: 'missing shorthand value', argv: ['-v'], want: "flag needs an argument: 'v' in -v" },
    { name: 'bad flag syntax', argv: ['---x'], want: 'bad flag syntax: ---x' },
    { name: 'bad int', argv: ['--secure-port=abc'],
      want: 'invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax' },
    { name: 'bad level', argv: ['-v', 'x'], want: 'invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax' },
    { name: 'a required claim without =', argv: ['--oidc-required-claim', 'c'], want: 'invalid argument "c" for "--oidc-required-claim" flag: malformed pair, expect string=string' },
    { name: 'bad bool', argv: ['--anonymous-auth=yes'],
      want: 'invalid argument "yes" for "--anonymous-auth" flag: strconv.ParseBool: parsing "yes": invalid syntax' },
    { name: 'bad duration', argv: ['--request-timeout=10'],
      want: 'invalid argument "10" for "--request-timeout" flag: time: missing unit in duration "10"' },
    { name: 'bad IP', argv: ['--bind-address=localhost'], want: 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"' },
    { name: 'bad port range', argv: ['--service-node-port-range=5-1'],
      want: 'invalid argument "5-1" for "--service-node-port-range" flag: end port cannot be less than start port: 5-1' },
    { name: 'positional argument', argv: ['extra'], want: '"kapi serve" does not take any arguments, got ["extra"]' },
    { name: 'port out of range', argv: ['--secure-port=70000'], want: '--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port' },
    { name: 'invalid cidr', argv: ['--service-cluster-ip-range=abc'], want: 'service-cluster-ip-range[0] is not a valid cidr' },
    { name: 'three ranges', argv: ['--service-cluster-ip-range=10.0.0.0/24,fd00::/108,10.1.0.0/24'],
      want: '--service-cluster-ip-range must not contain more than two entries' },
    { name: 'two ranges of one family', argv: ['--service-cluster-ip-range=10.96.0.0/16,10.97.0.0/16'],
      want: '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family' },
    { name: 'an unknown admission plugin, as kube', argv: ['--enable-admission-plugins=Foo'], want: 'enable-admission-plugins plugin "Foo" is unknown' },
    { name: 'an unknown plugin to disable, as kube', argv: ['--disable-admission-plugins=Bar'], want: 'disable-admission-plugins plugin "Bar" is unknown' },
    { name: 'a plugin of kube\'s that kapi does not implement is refused by name', argv: ['--enable-admission-plugins=ImagePolicyWebhook'],
      want: 'enable-admission-plugins plugin "ImagePolicyWebhook" is not supported by kapi' },
    { name: 'a plugin both enabled and disabled, as kube', argv: ['--enable-admission-plugins=Priority,LimitRanger', '--disable-admission-plugins=LimitRanger,Priority'],
      want: '[LimitRanger Priority] in enable-admission-plugins and disable-admission-plugins overlapped' },
    { name: 'admission errors aggregate', argv: ['--enable-admission-plugins=Foo', '--disable-admission-plugins=Bar'],
      want: '[enable-admission-plugins plugin "Foo" is unknown, disable-admission-plugins plugin "Bar" is unknown]' },
    { name: 'negative inflight', argv: ['--max-requests-inflight=-1'], want: '--max-requests-inflight can not be negative value' },
    { name: 'unknown backend', argv: ['--storage-backend=etcd2'],
      want: "--storage-backend invalid, allowed values: sqlite, etcd3. If not specified, it will default to 'sqlite'" },
    { name: 'unknown storage media type, as kube', argv: ['--storage-media-type=application/cbor'],
      want: '--storage-media-type "application/cbor" invalid, allowed values: application/json, application/vnd.kubernetes.protobuf, application/yaml' },
    { name: 'etcd without servers', argv: ['--storage-backend=etcd3'], want: '--etcd-servers must be specified' },
    { name: 'cert without key', argv: ['--tls-cert-file=a.crt'], want: '--tls-cert-file and --tls-private-key-file must be specified together' },
    { name: 'unknown authorization mode', argv: ['--authorization-mode=RBAC,Foo'], want: 'authorization-mode "Foo" is not a valid mode' },
    { name: 'Webhook needs its kubeconfig', argv: ['--authorization-mode=Webhook'],
      want: "authorization-mode Webhook's authorization config file not passed" },
    { name: 'negative min request timeout', argv: ['--min-request-timeout=-1'], want: '--min-request-timeout can not be negative value' },
    { name: 'ABAC needs its policy file', argv: ['--authorization-mode=ABAC'], want: "authorization-mode ABAC's authorization policy file not passed" },
    { name: 'a policy file needs ABAC', argv: ['--authorization-mode=RBAC', '--authorization-policy-file=p.jsonl'],
      want: 'cannot specify --authorization-policy-file without mode ABAC' },
    { name: 'repeated authorization mode', argv: ['--authorization-mode=RBAC,RBAC'],
      want: 'authorization-mode ["RBAC" "RBAC"] has mode specified more than once' },
    { name: 'unknown tls version', argv: ['--tls-min-version=VersionTLS14'],
      want: 'invalid argument "VersionTLS14" for "--tls-min-version" flag: unknown tls version "VersionTLS14"' },
    { name: 'tls version in another spelling', argv: ['--tls-min-version=TLSv1.2'],
      want: 'invalid argument "TLSv1.2" for "--tls-min-version" flag: unknown tls version "TLSv1.2"' },
    { name: 'unknown cipher suite', argv: ['--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,ECDHE-RSA-AES128-GCM-SHA256'],
      want: 'invalid argument "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,ECDHE-RSA-AES128-GCM-SHA256" for "--tls-cipher-suites" flag: Cipher suite ECDHE-RSA-AES128-GCM-SHA256 not supported or doesn\'t exist' },
    { name: 'audit log errors in kube\'s order', argv: ['--audit-log-path=/tmp/a.log', '--audit-log-mode=foo', '--audit-log-format=xml',
      '--audit-log-maxage=-1', '--audit-log-maxbackup=-2', '--audit-log-maxsize=-3', '--audit-log-version=v9', '--audit-log-truncate-enabled',
      '--audit-log-truncate-max-event-size=0'],
    want: '[invalid audit log mode foo, allowed modes are "batch,blocking,blocking-strict", invalid audit truncate log max event size 0, must be a positive number, ' +
      'invalid group version, allowed versions are ["audit.k8s.io/v1"], invalid audit log format xml, allowed formats are "legacy,json", ' +
      '--audit-log-maxage -1 can\'t be a negative number, --audit-log-maxbackup -2 can\'t be a negative number, --audit-log-maxsize -3 can\'t be a negative number]' },
    { name: 'audit batch options: the first error only', argv: ['--audit-log-path=/tmp/a.log', '--audit-log-mode=batch', '--audit-log-batch-buffer-size=0',
      '--audit-log-batch-max-size=0', '--audit-log-truncate-enabled', '--audit-log-truncate-max-batch-size=5'],
    want: '[invalid audit batch log buffer size 0, must be a positive number, invalid audit truncate log max batch size 5, must be greater than max event size (102400)]' },
    { name: 'audit webhook batch size', argv: ['--audit-webhook-config-file=/tmp/k', '--audit-webhook-batch-max-size=0'],
      want: 'invalid audit batch webhook max batch size 0, must be a positive number' },
    { name: 'a float flag', argv: ['--audit-webhook-batch-throttle-qps=x'],
      want: 'invalid argument "x" for "--audit-webhook-batch-throttle-qps" flag: strconv.ParseFloat: parsing "x": invalid syntax' },
    // kube-apiserver v1.36's start-up errors for the same values (asked).
    { name: 'watch cache size without #', argv: ['--watch-cache-sizes=foo'], want: 'invalid value of watch cache size: foo' },
    { name: 'watch cache size with two #', argv: ['--watch-cache-sizes=a#b#c'], want: 'invalid value of watch cache size: a#b#c' },
    { name: 'watch cache size not a number', argv: ['--watch-cache-sizes=configmaps#x'], want: 'invalid size of watch cache size: configmaps#x' },
    { name: 'negative watch cache size', argv: ['--watch-cache-sizes=pods#-1'], want: 'watch cache size cannot be negative: pods#-1' },
    { name: 'watch cache not a bool', argv: ['--watch-cache=foo'], want: 'invalid argument "foo" for "--watch-cache" flag: strconv.ParseBool: parsing "foo": invalid syntax' },
    { name: 'goaway chance above 0.02', argv: ['--goaway-chance=0.03'], want: '--goaway-chance can not be less than 0 or greater than 0.02' },
    { name: 'negative goaway chance', argv: ['--goaway-chance=-0.01'], want: '--goaway-chance can not be less than 0 or greater than 0.02' },
    { name: 'goaway chance not a number', argv: ['--goaway-chance=abc'],
      want: 'invalid argument "abc" for "--goaway-chance" flag: strconv.ParseFloat: parsing "abc": invalid syntax' },
    // kapi's own: Node has no block profiler, so the flag would have no effect.
    { name: 'contention profiling', argv: ['--contention-profiling'], want: '--contention-profiling is not implemented by kapi (Node has no block profiler)' },
    { name: 'several errors aggregate', argv: ['--secure-port=70000', '--max-requests-inflight=-1'],
      want: '[--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port, --max-requests-inflight can not be negative value]' },
  ];
  for (const c of cases) it(c.name, () => assert.throws(() => parseServeFlags(c.argv), { name: 'FlagError', message: c.want }));
});

describe('serveHelp', () => {
  it('lists every flag with its type and default', () => {
    const help = serveHelp();
    assert.match(help, /^Usage:\n {2}kapi serve \[flags\]\n/);
    assert.match(help, /\n {6}--secure-port int +The port .*\(default 6443\)\n/);
    assert.match(help, /\n {6}--request-timeout duration +.*\(default 1m0s\)\n/);
    assert.match(help, /\n {2}-v, --v Level +number for the log level verbosity; 3 and above log every request .*\(default 0\)\n/);
    assert.match(help, /\n {6}--data-dir string +.*\(default "\.\/\.kapi"\)\n/);
    assert.doesNotMatch(help, /--help.*default/);
    assert.match(help, /\n {6}--audit-webhook-batch-throttle-qps float32 +Maximum average number of batches per second\. Only used in batch mode\. \(default 10\)\n/);
    assert.match(help, /\n {6}--audit-log-batch-max-wait duration +The amount of time .* Only used in batch mode\.\n/);
  });
});

describe('parseServeFlags: the aggregator\'s flags', () => {
  it('reads --proxy-client-cert-file/--proxy-client-key-file and accepts --enable-aggregator-routing', () => {
    const o = parseServeFlags(['--proxy-client-cert-file', '/p.crt', '--proxy-client-key-file', '/p.key', '--enable-aggregator-routing']);
    assert.deepEqual([o.proxyClientCertFile, o.proxyClientKeyFile], ['/p.crt', '/p.key']);
    assert.doesNotThrow(() => parseServeFlags(['--enable-aggregator-routing=false']));
  });
});
