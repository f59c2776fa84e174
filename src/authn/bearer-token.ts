// Authorization: Bearer <token> (k8s.io/apiserver/pkg/authentication/request/bearertoken), and
// the same token carried in a WebSocket subprotocol (request/websocket), which browsers need.
import { headerValue, type AuthRequest, type AuthResponse, type Authenticator, type TokenAuthenticator } from './authenticator.ts';

/** The message of the error for a bearer token no token authenticator accepts. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';
export const INVALID_TOKEN_WITH_SPACE_WARNING =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  constructor(message = INVALID_BEARER_TOKEN) { super(message); }
}

async function check(tokens: TokenAuthenticator, token: string, audiences: readonly string[] | undefined): Promise<AuthResponse> {
  const resp = await tokens.authenticateToken(token, audiences);
  if (resp === undefined) throw new InvalidTokenError();
  return resp;
}

/**
 * The scheme is matched case-insensitively and the header is trimmed; the token is the second
 * space-separated word, so `Bearer  x` (two spaces) carries an empty token and is ignored with a
 * warning, as in kube.
 */
export function newBearerTokenAuthenticator(tokens: TokenAuthenticator): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const auth = (headerValue(req.headers, 'authorization') ?? '').trim();
      if (auth === '') return undefined;
      const parts = auth.split(' ');
      const scheme = parts[0] ?? '';
      if (parts.length < 2 || scheme.toLowerCase() !== 'bearer') return undefined;
      const token = parts[1] ?? '';
      if (token === '') {
        if (parts.length >= 3) req.warnings?.addWarning(INVALID_TOKEN_WITH_SPACE_WARNING);
        return undefined;
      }
      return await check(tokens, token, req.audiences);
    },
  };
}

const PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

function isWebSocketUpgrade(req: AuthRequest): boolean {
  const connection = (headerValue(req.headers, 'connection') ?? '').toLowerCase().split(',').map((s) => s.trim());
  return connection.includes('upgrade') && (headerValue(req.headers, 'upgrade') ?? '').toLowerCase() === 'websocket';
}

/**
 * `Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.<base64url(token)>` on a
 * WebSocket upgrade. Rejects an undecodable or empty token, and more than one token.
 */
export function newWebSocketProtocolAuthenticator(tokens: TokenAuthenticator): Authenticator {
  return {
    async authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      if (!isWebSocketUpgrade(req)) return undefined;
      const raw = req.headers['sec-websocket-protocol'];
      const values = raw === undefined ? [] : typeof raw === 'string' ? [raw] : [...raw];
      let token = '';
      let sawToken = false;
      for (const v of values) {
        for (const p of v.split(',')) {
          const protocol = p.trim();
          if (!protocol.startsWith(PROTOCOL_PREFIX)) continue;
          if (sawToken) throw new Error('multiple base64.bearer.authorization tokens specified');
          sawToken = true;
          const encoded = protocol.slice(PROTOCOL_PREFIX.length);
          if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error('invalid base64.bearer.authorization token encoding');
          token = Buffer.from(encoded, 'base64url').toString('utf8');
          if (token === '') throw new Error('invalid bearer token');
        }
      }
      if (!sawToken) return undefined;
      return await check(tokens, token, req.audiences);
    },
  };
}
