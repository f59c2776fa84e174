// The flags of `kapi serve` and the `kube-apiserver` command: kube-apiserver's names, kinds,
// defaults and help texts (kapi's own flags say so), in the order --help lists them.
// Counterpart of cmd/kube-apiserver/app/options (AddFlags).
import { AUTHORIZATION_MODE_CHOICES } from '../authz/modes.ts';
import { DEFAULT_ON_PLUGIN_NAMES, KUBE_ADMISSION_PLUGINS } from '../controlplane/admission.ts';
import { CORS_ALLOWED_ORIGINS_HELP } from '../server/filters/cors.ts';
import { AUDIT_FLAGS } from './audit-flags.ts';
import { insecureTLSCipherNames, tlsCipherPossibleValues } from './tls-options.ts';

export type Kind = 'int' | 'float32' | 'string' | 'bool' | 'duration' | 'strings' | 'map' | 'ip' | 'level' | 'portRange';

export interface FlagDef { readonly name: string; readonly kind: Kind; readonly def: string; readonly usage: string; readonly short?: string }

export const FLAGS: readonly FlagDef[] = [
  { name: 'admission-control-config-file', kind: 'string', def: '', usage: 'File with admission control configuration.' },
  { name: 'advertise-address', kind: 'ip', def: '', usage: 'The IP address the kubernetes Service\'s endpoints point at. Its family must be that of the primary --service-cluster-ip-range. If blank, --bind-address unless it is a loopback or unspecified address, else the first non-loopback address of the host (IPv4 first).' },
  { name: 'allow-privileged', kind: 'bool', def: 'false', usage: 'If true, allow privileged containers. [default=false]' },
  { name: 'anonymous-auth', kind: 'bool', def: 'true', usage: 'Enables anonymous requests to the secure port. Anonymous requests have a username of system:anonymous and a group name of system:unauthenticated.' },
  ...AUDIT_FLAGS,
  { name: 'authorization-mode', kind: 'strings', def: 'AlwaysAllow', usage: `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${AUTHORIZATION_MODE_CHOICES.join(',')}. kapi implements AlwaysAllow, AlwaysDeny, RBAC and Node.` },
  { name: 'bind-address', kind: 'ip', def: '127.0.0.1', usage: 'The IP address on which to listen for the --secure-port port.' },
  { name: 'api-audiences', kind: 'strings', def: '', usage: 'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If --service-account-issuer is configured and this flag is not, this field defaults to a single element list containing the issuer URL.' },
  { name: 'cert-dir', kind: 'string', def: '', usage: 'The directory where the TLS certs are located (apiserver.crt and apiserver.key are used when both exist). If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored. The kube-apiserver command defaults it to /var/run/kubernetes and keeps its files there unless --data-dir is given.' },
  { name: 'client-ca-file', kind: 'string', def: '', usage: 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate. Without it, kapi trusts the CA it generates in <data-dir>/pki (when it generates its serving certificate).' },
  { name: 'cors-allowed-origins', kind: 'strings', def: '', usage: CORS_ALLOWED_ORIGINS_HELP },
  { name: 'data-dir', kind: 'string', def: './.kapi', usage: 'Directory for the embedded store, generated certificates and the admin token.' },
  { name: 'disable-admission-plugins', kind: 'strings', def: '', usage: `admission plugins that should be disabled although they are in the default enabled plugins list (${DEFAULT_ON_PLUGIN_NAMES.join(', ')}). Comma-delimited list of admission plugins: ${KUBE_ADMISSION_PLUGINS.join(', ')}. The order of plugins in this flag does not matter.` },
  { name: 'enable-admission-plugins', kind: 'strings', def: '', usage: `admission plugins that should be enabled in addition to default enabled ones (${DEFAULT_ON_PLUGIN_NAMES.join(', ')}). Comma-delimited list of admission plugins: ${KUBE_ADMISSION_PLUGINS.join(', ')}. Enabling one kapi does not implement is refused by name. The order of plugins in this flag does not matter.` },
  { name: 'enable-priority-and-fairness', kind: 'bool', def: 'true', usage: 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness' },
  { name: 'endpoint-reconciler-type', kind: 'string', def: 'lease', usage: 'Use an endpoint reconciler (lease, none). kube\'s deprecated master-count is refused.' },
  { name: 'etcd-compaction-interval', kind: 'duration', def: '5m0s', usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.' },
  { name: 'etcd-prefix', kind: 'string', def: '/registry', usage: 'The prefix to prepend to all resource paths in etcd.' },
  { name: 'etcd-cafile', kind: 'string', def: '', usage: 'SSL Certificate Authority file used to secure etcd communication.' },
  { name: 'etcd-certfile', kind: 'string', def: '', usage: 'SSL certification file used to secure etcd communication.' },
  { name: 'etcd-keyfile', kind: 'string', def: '', usage: 'SSL key file used to secure etcd communication.' },
  { name: 'etcd-servers', kind: 'strings', def: '', usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated.' },
  { name: 'event-ttl', kind: 'duration', def: '1h0m0s', usage: 'Amount of time to retain events.' },
  { name: 'help', kind: 'bool', def: 'false', usage: 'help for serve', short: 'h' },
  { name: 'kubeconfig-out', kind: 'string', def: '', usage: 'Where to write the admin kubeconfig (default <data-dir>/kubeconfig).' },
  { name: 'max-mutating-requests-inflight', kind: 'int', def: '200', usage: 'This and --max-requests-inflight are summed to determine the server\'s total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of mutating requests in flight, or a zero value disables the limit completely.' },
  { name: 'max-requests-inflight', kind: 'int', def: '400', usage: 'This and --max-mutating-requests-inflight are summed to determine the server\'s total concurrency limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, this flag limits the maximum number of non-mutating requests in flight, or a zero value disables the limit completely.' },
  { name: 'request-timeout', kind: 'duration', def: '1m0s', usage: 'An optional field indicating the duration a handler must keep a request open before timing it out.' },
  { name: 'requestheader-allowed-names', kind: 'strings', def: '', usage: 'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.' },
  { name: 'requestheader-client-ca-file', kind: 'string', def: '', usage: 'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.' },
  { name: 'requestheader-extra-headers-prefix', kind: 'strings', def: '', usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.' },
  { name: 'requestheader-group-headers', kind: 'strings', def: '', usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.' },
  { name: 'requestheader-uid-headers', kind: 'strings', def: '', usage: 'List of request headers to inspect for UIDs. X-Remote-Uid is suggested. Requires the RemoteRequestHeaderUID feature to be enabled.' },
  { name: 'requestheader-username-headers', kind: 'strings', def: '', usage: 'List of request headers to inspect for usernames. X-Remote-User is common.' },
  { name: 'runtime-config', kind: 'map', def: '', usage: 'A set of key=value pairs that enable or disable built-in APIs, e.g. api/all=false,v1=true.' },
  { name: 'secure-port', kind: 'int', def: '6443', usage: 'The port on which to serve HTTPS with authentication and authorization. It cannot be switched off with 0.' },
  { name: 'service-account-issuer', kind: 'strings', def: '', usage: 'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.' },
  { name: 'service-account-jwks-uri', kind: 'string', def: '', usage: 'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration. This flag is useful if the discovery doc and key set are served to relying parties from a URL other than the API server\'s external (as auto-detected or overridden with external-hostname).' },
  { name: 'service-account-key-file', kind: 'strings', def: '', usage: 'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. kapi verifies ES256 (ECDSA P-256) tokens only.' },
  { name: 'service-account-signing-key-file', kind: 'string', def: '', usage: 'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key. kapi signs with ECDSA P-256 keys only (ES256).' },
  { name: 'service-cluster-ip-range', kind: 'string', def: '10.0.0.0/24', usage: 'A CIDR notation IP range from which to assign service cluster IPs, or two of different IP families (dual-stack), primary first.' },
  { name: 'service-node-port-range', kind: 'portRange', def: '30000-32767', usage: 'A port range to reserve for services with NodePort visibility. Example: \'30000-32767\'. Inclusive at both ends of the range.' },
  { name: 'shutdown-delay-duration', kind: 'duration', def: '0s', usage: 'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed.' },
  { name: 'shutdown-send-retry-after', kind: 'bool', def: 'false', usage: 'If true the HTTP Server will continue listening until all non long running request(s) in flight have been drained, during this window all incoming requests will be rejected with a status code 429 and a \'Retry-After\' response header, in addition \'Connection: close\' response header is set in order to tear down the TCP connection when idle.' },
  { name: 'shutdown-watch-termination-grace-period', kind: 'duration', def: '0s', usage: 'This option, if set, represents the maximum amount of grace period the apiserver will wait for active watch request(s) to drain during the graceful server shutdown window.' },
  { name: 'storage-backend', kind: 'string', def: 'sqlite', usage: 'The storage backend for persistence. Options: \'sqlite\' (embedded, default), \'etcd3\'.' },
  { name: 'strict-transport-security-directives', kind: 'strings', def: '', usage: 'List of directives for HSTS, comma separated. If this list is empty, then HSTS directives will not be added. Example: \'max-age=31536000,includeSubDomains,preload\'' },
  { name: 'tls-cert-file', kind: 'string', def: '', usage: 'File containing the default x509 certificate for HTTPS. If not given, a self-signed CA and certificate are generated in <data-dir>/pki.' },
  { name: 'tls-cipher-suites', kind: 'strings', def: '', usage: `Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites will be used. Possible values: ${tlsCipherPossibleValues().join(', ')}. Insecure values: ${insecureTLSCipherNames().join(', ')}.` },
  { name: 'tls-min-version', kind: 'string', def: '', usage: 'Minimum TLS version supported. Possible values: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13' },
  { name: 'tls-private-key-file', kind: 'string', def: '', usage: 'File containing the default x509 private key matching --tls-cert-file.' },
  { name: 'token-auth-file', kind: 'string', def: '', usage: 'If set, the file that will be used to secure the secure port of the API server via token authentication.' },
  { name: 'v', kind: 'level', def: '0', usage: 'number for the log level verbosity; 3 and above log every request as kube\'s httplog does', short: 'v' },
];
