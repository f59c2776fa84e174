// The ConfigMap kube-system/extension-apiserver-authentication: how this server authenticates
// clients (the client CA bundle, and for front proxies the request-header CA, allowed names and
// header names), read by aggregated API servers and webhooks to trust what kube-apiserver trusts.
// What is already published is merged with this server's (several API servers share it): the
// lists are united without repeats, the CA bundles united without repeats or expired
// certificates. Written at start, then again when it is created or deleted by someone else (a
// delete is undone at once) and every minute (which undoes edits), as kube's controller does.
// Counterpart of pkg/controlplane/controller/clusterauthenticationtrust.
import { X509Certificate } from 'node:crypto';
import { isAlreadyExists, isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { corev1 } from '../generated/types/index.gen.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

export const CLUSTER_AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';
const NAMESPACE = 'kube-system';

export interface ClusterAuthenticationInfo {
  /** PEM of --client-ca-file; undefined without it. */
  readonly clientCA?: string;
  readonly requestHeader?: {
    /** PEM of --requestheader-client-ca-file. */
    readonly clientCA: string;
    readonly usernameHeaders: readonly string[];
    readonly uidHeaders: readonly string[];
    readonly groupHeaders: readonly string[];
    readonly extraHeaderPrefixes: readonly string[];
    readonly allowedNames: readonly string[];
  };
}

const uniqueUnion = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** Go's json.Marshal of a []string; a published value that is no list reads as empty, as kube fails on it. */
const parseList = (s: string | undefined): string[] => {
  if (s === undefined || s === '') return [];
  const v: unknown = JSON.parse(s);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

/** The certificates of both bundles, without repeats or expired ones, re-encoded one after another. */
function combineBundles(a: string | undefined, b: string | undefined, now: Date): string {
  const blocks = `${a ?? ''}\n${b ?? ''}`.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const seen: Buffer[] = [];
  let out = '';
  for (const block of blocks) {
    const c = new X509Certificate(block);
    if (new Date(c.validTo).getTime() < now.getTime() || seen.some((s) => s.equals(c.raw))) continue;
    seen.push(c.raw);
    out += `-----BEGIN CERTIFICATE-----\n${c.raw.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
  }
  return out;
}

/** The ConfigMap's data for `info` merged with what is published already. */
export function clusterAuthenticationData(
  info: ClusterAuthenticationInfo, existing: Readonly<Record<string, string>>, now = new Date(),
): Record<string, string> {
  const data: Record<string, string> = {};
  const clientCA = combineBundles(existing['client-ca-file'], info.clientCA, now);
  if (clientCA !== '') data['client-ca-file'] = clientCA;
  const rh = info.requestHeader;
  const rhCA = combineBundles(existing['requestheader-client-ca-file'], rh?.clientCA, now);
  if (rhCA === '') return data;
  const list = (key: string, mine: readonly string[] | undefined): string[] => uniqueUnion(parseList(existing[key]), mine ?? []);
  data['requestheader-username-headers'] = JSON.stringify(list('requestheader-username-headers', rh?.usernameHeaders));
  const uid = list('requestheader-uid-headers', rh?.uidHeaders);
  if (uid.length > 0) data['requestheader-uid-headers'] = JSON.stringify(uid);
  data['requestheader-group-headers'] = JSON.stringify(list('requestheader-group-headers', rh?.groupHeaders));
  data['requestheader-extra-headers-prefix'] = JSON.stringify(list('requestheader-extra-headers-prefix', rh?.extraHeaderPrefixes));
  data['requestheader-client-ca-file'] = rhCA;
  data['requestheader-allowed-names'] = JSON.stringify(list('requestheader-allowed-names', rh?.allowedNames));
  return data;
}

const sameData = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** Creates or updates the ConfigMap once; a lost race is left to the next start, as kube retries later. */
export async function publishClusterAuthenticationInfo(configMaps: ResourceStore<KubeObject>, info: ClusterAuthenticationInfo): Promise<void> {
  const ctx = systemContext(NAMESPACE);
  let existing: WireObject<corev1.ConfigMap> | undefined;
  try {
    existing = await configMaps.get(ctx, CLUSTER_AUTHENTICATION_CONFIGMAP, {}) as WireObject<corev1.ConfigMap>;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const data = clusterAuthenticationData(info, existing?.data ?? {});
  try {
    if (existing === undefined) {
      const created: WireObject<corev1.ConfigMap> = {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_AUTHENTICATION_CONFIGMAP, namespace: NAMESPACE }, data,
      };
      await configMaps.create(ctx, created, undefined, { dryRun: false });
    } else if (!sameData(existing.data ?? {}, data)) {
      const current = existing;
      await configMaps.update(ctx, CLUSTER_AUTHENTICATION_CONFIGMAP, {
        preconditions: { uid: current.metadata.uid ?? '' },
        updatedObject: (_c, cur) => ({ ...structuredClone(cur ?? current), data }),
      }, undefined, undefined, false, { dryRun: false });
    }
  } catch (err) {
    if (!isAlreadyExists(err) && !isConflict(err) && !isNotFound(err)) throw err;
  }
}

const RESYNC_MS = 60_000;
const KEY = `${NAMESPACE}/${CLUSTER_AUTHENTICATION_CONFIGMAP}`;

/** Keeps the ConfigMap current: first written by start(), then on its adds and deletes (not updates, as kube) and every minute. */
export class ClusterAuthenticationTrustController extends Controller {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly configMaps: ResourceStore<KubeObject>, private readonly info: ClusterAuthenticationInfo, opts: ControllerOptions = {}) {
    super('cluster_authentication_trust_controller', opts);
    const kick = (o: KubeObject): void => {
      if (o.metadata.namespace === NAMESPACE && o.metadata.name === CLUSTER_AUTHENTICATION_CONFIGMAP) this.queue.add(KEY);
    };
    this.follow(configMaps, 'configmaps', { onAdd: kick, onDelete: kick });
  }

  /** Publishes once (the server is not ready before), then follows. */
  override async start(): Promise<void> {
    await publishClusterAuthenticationInfo(this.configMaps, this.info);
    await super.start();
    this.timer = setInterval(() => { this.queue.add(KEY); }, RESYNC_MS);
    this.timer.unref();
  }

  override stop(): void {
    clearInterval(this.timer);
    super.stop();
  }

  protected async sync(): Promise<void> {
    await publishClusterAuthenticationInfo(this.configMaps, this.info);
  }
}
