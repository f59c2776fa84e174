// Watches over WebSocket, as kube-apiserver serves them (serveWatch hands a request with
// `Connection: upgrade` and `Upgrade: websocket` to golang.org/x/net/websocket): each event is one
// message, text for JSON and YAML, binary for protobuf; the server ignores what the client sends
// but answers pings and closes with status 1000 (normal) when the watch ends. Clients such as
// fabric8's kubernetes-client watch this way by default. Only the server side of RFC 6455 that a
// watch needs is here: no extensions, no fragmented sends.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;
/** 1000, normal closure: what x/net/websocket's Close sends. */
const CLOSE_NORMAL = Buffer.from([0x03, 0xe8]);
/** A client frame larger than this closes the connection (x/net reads at most 32 MiB per frame). */
const MAX_INCOMING_FRAME = 32 << 20;

/** wsstream.IsWebSocketRequest: a Connection header containing "upgrade" and Upgrade "websocket". */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  return (req.headers.connection ?? '').toLowerCase().includes('upgrade') && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

export interface WebSocketConn {
  /** Sends one message; false when the socket's buffer is full (wait for drain()). */
  send(data: string | Buffer): boolean;
  /** Resolves when the socket can take more, or has closed. */
  drain(): Promise<void>;
  /** Sends the close frame (1000) and ends the connection. Idempotent. */
  close(): void;
  /** Calls `fn` once when the client closes or the connection breaks. */
  onClosed(fn: () => void): void;
}

/** The handshake refusals x/net/websocket writes itself: a status line and no body. */
function refuse(socket: Duplex, status: string, extra = ''): undefined {
  socket.end(`HTTP/1.1 ${status}\r\n${extra}\r\n`);
  return undefined;
}

/** url.ParseRequestURI's acceptance, roughly: an absolute URL or an absolute path. */
function parsableOrigin(origin: string): boolean {
  if (origin.startsWith('/')) return true;
  try {
    return new URL(origin).protocol !== '';
  } catch {
    return false;
  }
}

function header(b0: number, length: number): Buffer {
  if (length < 126) return Buffer.from([b0, length]);
  if (length < 0x10000) {
    const h = Buffer.alloc(4);
    h[0] = b0; h[1] = 126; h.writeUInt16BE(length, 2);
    return h;
  }
  const h = Buffer.alloc(10);
  h[0] = b0; h[1] = 127; h.writeBigUInt64BE(BigInt(length), 2);
  return h;
}

/** One unmasked, final server frame. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  return Buffer.concat([header(0x80 | opcode, payload.length), payload]);
}

/** A client frame: its opcode and unmasked payload, and the bytes it used; undefined until complete. */
export function decodeFrame(buf: Buffer): { opcode: number; payload: Buffer; size: number } | 'too large' | undefined {
  if (buf.length < 2) return undefined;
  const b1 = buf[1] ?? 0;
  let length = b1 & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buf.length < 4) return undefined;
    length = buf.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buf.length < 10) return undefined;
    const big = buf.readBigUInt64BE(2);
    if (big > BigInt(MAX_INCOMING_FRAME)) return 'too large';
    length = Number(big);
    offset = 10;
  }
  if (length > MAX_INCOMING_FRAME) return 'too large';
  const masked = (b1 & 0x80) !== 0;
  const mask = masked ? buf.subarray(offset, offset + 4) : undefined;
  if (masked) offset += 4;
  if (buf.length < offset + length) return undefined;
  const payload = Buffer.from(buf.subarray(offset, offset + length));
  if (mask !== undefined) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return { opcode: (buf[0] ?? 0) & 0x0f, payload, size: offset + length };
}

/**
 * Completes the handshake on the request's socket (x/net/websocket's checks: GET, version 13, a
 * key, an Origin that parses, at most one subprotocol, which is echoed) and returns the
 * connection; or writes the refusal x/net writes (403 without an Origin, 400 otherwise), closes
 * the socket and returns undefined. `binary` picks binary messages (protobuf) over text.
 */
export function acceptWebSocket(req: IncomingMessage, binary: boolean): WebSocketConn | undefined {
  const socket = req.socket;
  const key = req.headers['sec-websocket-key'] ?? '';
  if (req.method !== 'GET') return refuse(socket, '405 Method Not Allowed');
  if (req.headers['sec-websocket-version'] !== '13') return refuse(socket, '400 Bad Request', 'Sec-WebSocket-Version: 13\r\n');
  if (key === '') return refuse(socket, '400 Bad Request');
  const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (protocols.length > 1) return refuse(socket, '400 Bad Request');
  const origin = req.headers.origin ?? '';
  if (origin === '' || !parsableOrigin(origin)) return refuse(socket, '403 Forbidden');

  const accept = createHash('sha1').update(key + ACCEPT_GUID).digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    `Sec-WebSocket-Accept: ${accept}\r\n${protocols.length === 1 ? `Sec-WebSocket-Protocol: ${protocols[0] ?? ''}\r\n` : ''}\r\n`);

  let closed = false;
  const listeners: (() => void)[] = [];
  const closedByPeer = (): void => {
    if (closed) return;
    closed = true;
    for (const fn of listeners.splice(0)) fn();
  };
  const close = (): void => {
    if (!socket.writable) { socket.destroy(); closedByPeer(); return; }
    socket.end(encodeFrame(OP_CLOSE, CLOSE_NORMAL));
    closedByPeer();
  };
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const f = decodeFrame(pending);
      if (f === undefined) return;
      if (f === 'too large') { close(); return; }
      pending = pending.subarray(f.size);
      if (f.opcode === OP_PING) socket.write(encodeFrame(OP_PONG, f.payload));
      else if (f.opcode === OP_CLOSE) { close(); return; }
      // Text, binary, continuation and pong frames are ignored, as IgnoreReceives does.
      else if (![OP_TEXT, OP_BINARY, OP_CONTINUATION, OP_PONG].includes(f.opcode)) { close(); return; }
    }
  });
  socket.on('close', closedByPeer);
  socket.on('error', () => { socket.destroy(); closedByPeer(); });
  const opcode = binary ? OP_BINARY : OP_TEXT;
  return {
    send: (data) => socket.write(encodeFrame(opcode, typeof data === 'string' ? Buffer.from(data) : data)),
    drain: () => new Promise<void>((resolve) => {
      if (closed) { resolve(); return; }
      socket.once('drain', resolve);
      listeners.push(resolve);
    }),
    close,
    onClosed: (fn) => { if (closed) fn(); else listeners.push(fn); },
  };
}
