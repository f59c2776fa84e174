// Server-filled object metadata: generated names and uids.
// Counterpart of k8s.io/apiserver/pkg/storage/names and k8s.io/apiserver/pkg/registry/rest/meta.go
// (FillObjectMetaSystemFields).
import { randomBytes, randomUUID } from 'node:crypto';

// The alphabet kube uses for generateName suffixes: no vowels (no words), no confusable characters.
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_GENERATED_NAME_LENGTH = 63 - 5;

/** generateName + 5 random characters, truncating the base as kube's SimpleNameGenerator does. */
export function generateName(base: string): string {
  const prefix = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  const bytes = randomBytes(5);
  let suffix = '';
  for (const b of bytes) suffix += ALPHANUMS[b % ALPHANUMS.length];
  return prefix + suffix;
}

export function newUID(): string {
  return randomUUID();
}

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function nowRFC3339(now: number = Date.now()): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
