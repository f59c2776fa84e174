// The 429 of the in-flight limits (max-in-flight and priority and fairness): Go's plain-text error with
// kube's message, plain text, and Retry-After.
// Counterpart of tooManyRequests in k8s.io/apiserver/pkg/server/filters/maxinflight.go.
import type { ServerResponse } from 'node:http';

const BODY = 'Too many requests, please try again later.\n';

export function writeTooManyRequests(res: ServerResponse, retryAfterSeconds: number): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Length', Buffer.byteLength(BODY));
  res.statusCode = 429;
  res.end(BODY);
}
