// The path of a request as Go's net/http gives it to kube-apiserver (url.ParseRequestURI's
// URL.Path): percent escapes decoded, "." and ".." segments kept as they are. A WHATWG URL would
// resolve "/configmaps/%2e%2e" to the namespace and keep "%2F" encoded inside a name; Go does
// neither, so the name ".." reaches the registry (a 400) and "a%2Fb" splits into two segments.

/** Go's URL.Path of a request target, or undefined when an escape is malformed (Go: 400). */
export function decodeRequestPath(target: string): string | undefined {
  if (!target.startsWith('/')) {
    // Absolute form ("https://host/p") or "*": the URL parser's path is close enough.
    try {
      return decodeRequestPath(new URL(target).pathname);
    } catch {
      return target === '*' ? '*' : undefined;
    }
  }
  const q = target.indexOf('?');
  const raw = q === -1 ? target : target.slice(0, q);
  if (!raw.includes('%')) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 0x25) {
      // Request targets are ASCII on the wire; anything else is kept as its UTF-8 bytes.
      for (const b of Buffer.from(raw[i] ?? '', 'utf8')) bytes.push(b);
      continue;
    }
    const hex = raw.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  return Buffer.from(bytes).toString('utf8');
}
