// Node's socket and TLS errors worded as Go's net/http client words them, so that a webhook
// failure reads the same from kapi as from kube-apiserver (`dial tcp 127.0.0.1:9: connect:
// connection refused`, `tls: failed to verify certificate: x509: certificate signed by unknown
// authority`). No single Go counterpart: the texts of Go's net, crypto/tls and crypto/x509.
import { isIP } from 'node:net';

interface NodeSystemError extends Error {
  readonly code?: string;
  readonly address?: string;
  readonly port?: number;
  readonly hostname?: string;
  readonly host?: string;
  readonly cert?: { readonly subjectaltname?: string; readonly valid_to?: string; readonly valid_from?: string };
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_SIGNATURE_FAILURE',
]);

const VERIFY = 'tls: failed to verify certificate: x509: ';

/** net.JoinHostPort. */
export function joinHostPort(host: string, port: number | string): string {
  return isIP(host) === 6 ? `[${host}]:${String(port)}` : `${host}:${String(port)}`;
}

/** RFC 3339 without fractional seconds, as Go prints a time.Time in x509 expiry errors. */
function rfc3339(s: string | undefined): string {
  const t = s === undefined ? Number.NaN : Date.parse(s);
  return Number.isNaN(t) ? '' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** x509.HostnameError: which names the certificate is valid for, and which was asked. */
function hostnameError(err: NodeSystemError, serverName: string): string {
  const sans = (err.cert?.subjectaltname ?? '').split(', ').filter((s) => s !== '');
  const dns = sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4));
  const ips = sans.filter((s) => s.startsWith('IP Address:')).map((s) => s.slice(11));
  if (isIP(serverName) !== 0) {
    if (ips.length === 0) return `${VERIFY}cannot validate certificate for ${serverName} because it doesn't contain any IP SANs`;
    return `${VERIFY}certificate is valid for ${ips.join(', ')}, not ${serverName}`;
  }
  if (dns.length === 0) return `${VERIFY}certificate is not valid for any names, but wanted to match ${serverName}`;
  return `${VERIFY}certificate is valid for ${dns.join(', ')}, not ${serverName}`;
}

/**
 * The Go wording of a transport error of a request to `serverName` (the name the certificate
 * is checked against). Unknown errors keep Node's message.
 */
export function goNetErrorText(e: unknown, serverName: string): string {
  if (!(e instanceof Error)) return String(e);
  const err: NodeSystemError = e;
  const code = err.code ?? '';
  if (UNKNOWN_AUTHORITY.has(code)) return `${VERIFY}certificate signed by unknown authority`;
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: network is unreachable`;
    case 'ENOTFOUND': case 'EAI_AGAIN':
      return `dial tcp: lookup ${err.hostname ?? serverName}: no such host`;
    case 'ECONNRESET':
      // Node's "socket hang up": the peer closed the connection before any response, which
      // Go's transport reports as EOF.
      return err.message === 'socket hang up' ? 'EOF' : 'read: connection reset by peer';
    case 'EPIPE':
      return 'write: broken pipe';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return hostnameError(err, serverName);
    case 'CERT_HAS_EXPIRED':
      return `${VERIFY}certificate has expired or is not yet valid: current time ${rfc3339(new Date().toISOString())} is after ${rfc3339(err.cert?.valid_to)}`;
    case 'CERT_NOT_YET_VALID':
      return `${VERIFY}certificate has expired or is not yet valid: current time ${rfc3339(new Date().toISOString())} is before ${rfc3339(err.cert?.valid_from)}`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER': case 'EPROTO':
      return 'tls: first record does not look like a TLS handshake';
    case 'HPE_INVALID_CONSTANT': case 'HPE_INVALID_VERSION': case 'HPE_INVALID_STATUS':
      return 'net/http: HTTP/1.x transport connection broken: malformed HTTP response';
    default:
      return err.message;
  }
}

/** Go's time.Duration.String for a whole number of milliseconds (`30s`, `1m0s`, `500ms`, `1.5s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${String(ms)}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${String(s)}s`;
  if (h > 0) return `${String(h)}h${String(m)}m${sec}`;
  if (m > 0) return `${String(m)}m${sec}`;
  return sec;
}
