// Small shared pieces of the etcd e2e tests: object shapes, a hang guard, and resourceVersion order.
// No Go counterpart: the e2e test harness.
import assert from 'node:assert/strict';
import type { RawResponse } from './https-client.ts';

export interface ObjectJSON {
  readonly kind?: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion: string; readonly uid?: string };
  readonly data?: Readonly<Record<string, string>>;
  readonly spec?: {
    readonly clusterIP?: string;
    readonly ports?: readonly { readonly nodePort?: number }[];
  };
}

export interface ListJSON {
  readonly metadata: { readonly resourceVersion: string; readonly continue?: string; readonly remainingItemCount?: number };
  readonly items: readonly ObjectJSON[];
}

/** A guard against a hang (e.g. a request that never returns while etcd is down), not a timing assertion. */
export async function guard<T>(what: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within ${ms}ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The body of a response whose status must be `want`, for messages that show the body on failure. */
export function expectStatus(r: RawResponse, want: number, what: string): unknown {
  assert.equal(r.status, want, `${what}: ${r.text}`);
  return r.json();
}

/** etcd-backed resourceVersions are decimal revisions; kube clients treat them as opaque, the tests may not. */
export function rvNumber(rv: string | undefined): bigint {
  assert.ok(rv !== undefined && /^[1-9][0-9]*$/.test(rv), `resourceVersion ${String(rv)} is not an etcd revision`);
  return BigInt(rv);
}

export function configMapBody(name: string, data: Record<string, string>, labels: Record<string, string> = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });
}
