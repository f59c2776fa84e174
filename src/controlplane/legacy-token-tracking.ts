// kube-apiserver's legacy-token-tracking controller: the ConfigMap
// kube-system/kube-apiserver-legacy-service-account-token-tracking records since when the server
// tracks the use of secret-based service account tokens. kube-controller-manager's
// legacy-service-account-token-cleaner reads it, and logs an error while it is missing.
// kapi writes it at start (or repairs a `since` that is no date); kube also recreates it at most
// every 30 minutes when deleted, which kapi leaves to its next start.
// Counterpart of pkg/controlplane/controller/legacytokentracking.
import { isAlreadyExists, isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import type { corev1 } from '../generated/types/index.gen.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const LEGACY_TOKEN_TRACKING_CONFIGMAP = 'kube-apiserver-legacy-service-account-token-tracking';
const KEY = 'since';

/** Go's time.Parse with layout "2006-01-02": four-digit year, two-digit month and day, a real date. */
export function isTrackingDate(s: string | undefined): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s ?? '');
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return mo >= 1 && mo <= 12 && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Today in UTC as the ConfigMap records it. */
export const trackingDate = (now: Date): string => now.toISOString().slice(0, 10);

/** What the controller does: create the ConfigMap, rewrite its date, or nothing. */
export function trackingChange(existing: KubeObject | undefined): 'create' | 'update' | undefined {
  if (existing === undefined) return 'create';
  const data = (existing as WireObject<corev1.ConfigMap>).data;
  return isTrackingDate(data !== undefined && Object.hasOwn(data, KEY) ? data[KEY] : undefined) ? undefined : 'update';
}

/** Creates or repairs the ConfigMap once; a lost race (AlreadyExists, Conflict, NotFound) is left as kube leaves it. */
export async function ensureLegacyTokenTracking(configMaps: ResourceStore<KubeObject>, now = new Date()): Promise<void> {
  const ctx = systemContext('kube-system');
  let existing: KubeObject | undefined;
  try {
    existing = await configMaps.get(ctx, LEGACY_TOKEN_TRACKING_CONFIGMAP, {});
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const change = trackingChange(existing);
  try {
    if (change === 'create') {
      const created: WireObject<corev1.ConfigMap> = {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: LEGACY_TOKEN_TRACKING_CONFIGMAP, namespace: 'kube-system' },
        data: { [KEY]: trackingDate(now) },
      };
      await configMaps.create(ctx, created, undefined, { dryRun: false });
    } else if (change === 'update' && existing !== undefined) {
      const uid = existing.metadata.uid ?? '';
      await configMaps.update(ctx, LEGACY_TOKEN_TRACKING_CONFIGMAP, {
        preconditions: { uid },
        updatedObject: (_c, cur) => {
          const next: WireObject<corev1.ConfigMap> = structuredClone(cur ?? existing);
          next.data = { ...(next.data ?? {}), [KEY]: trackingDate(now) };
          return next;
        },
      }, undefined, undefined, false, { dryRun: false });
    }
  } catch (err) {
    if (!isAlreadyExists(err) && !isConflict(err) && !isNotFound(err)) throw err;
  }
}
