// Reading request bodies with kube-apiserver's size limit.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go (limitedReadBody).
import type { IncomingMessage } from 'node:http';
import { newRequestEntityTooLarge } from '../../apimachinery/errors/status-error.ts';

/** kube-apiserver's default: 3 MiB (--max-request-bytes is about etcd; this is the JSON limit). */
const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Resolves the whole body; rejects with 413 RequestEntityTooLarge beyond `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? -1);
  if (declared > limit) {
    req.resume();
    return Promise.reject(newRequestEntityTooLarge(`limit is ${limit}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(newRequestEntityTooLarge(`limit is ${limit}`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => { if (!failed) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)); });
    req.on('error', (e) => { if (!failed) { failed = true; reject(e); } });
  });
}
