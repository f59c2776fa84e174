// kube's crdregistration controller with the part of the aggregator's autoregister controller it
// drives: every group version a CRD serves has a local APIService `<version>.<group>` labelled
// automanaged=true (groupPriorityMinimum 1000, versionPriority 100), Available; the APIService goes
// when no CRD serves that group version any more. APIServices without that label are left alone.
// Counterpart of k8s.io/kube-aggregator/pkg/controllers/autoregister and
// pkg/controlplane/controller/crdregistration.
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Watch } from '../apimachinery/watch/event.ts';
import type { Store } from '../registry/generic/store.ts';
import { AUTOMANAGED_LABEL, markLocalAvailable } from './local-apiservices.ts';

const RETRY_MS = 1000;

interface CRDView { spec?: { group?: string; versions?: readonly { name?: string; served?: boolean }[] } }
interface APIServiceView { metadata: { name?: string; labels?: Record<string, string> }; spec?: { group?: string; version?: string } }

/** The `<version>.<group>` names of the group versions the CRDs serve, with their group and version. */
export function servedGroupVersions(crds: readonly CRDView[]): Map<string, { group: string; version: string }> {
  const out = new Map<string, { group: string; version: string }>();
  for (const crd of crds) {
    const group = crd.spec?.group ?? '';
    for (const v of crd.spec?.versions ?? []) {
      if (v.served === true && v.name !== undefined && group !== '') out.set(`${v.name}.${group}`, { group, version: v.name });
    }
  }
  return out;
}

export class CRDRegistrationController {
  private watch: Watch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly crds: Store<KubeObject>, private readonly apiServices: Store<KubeObject>) {}

  async start(): Promise<void> {
    const w = await this.crds.watch(systemContext(''), {});
    this.watch = w;
    void (async () => {
      try {
        for await (const ev of w) if (ev.type !== 'BOOKMARK') this.kick();
      } catch {
        // storage closed: stopping
      }
    })();
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  /** Resolves once the APIServices match the CRDs as of now (for tests). */
  async synced(): Promise<void> {
    this.kick();
    while (this.running !== undefined) await this.running;
  }

  /** One sync at a time; a change during a sync runs another after it. */
  private kick(): void {
    if (this.stopped) return;
    if (this.running !== undefined) { this.again = true; return; }
    this.running = this.sync().catch(() => {
      if (this.stopped) return;
      this.timer = setTimeout(() => { this.timer = undefined; this.kick(); }, RETRY_MS);
    }).finally(() => {
      this.running = undefined;
      if (this.again) { this.again = false; this.kick(); }
    });
  }

  private async sync(): Promise<void> {
    const ctx = systemContext('');
    const wanted = servedGroupVersions((await this.crds.list(ctx, {})).items as CRDView[]);
    const existing = new Map<string, APIServiceView>();
    for (const s of (await this.apiServices.list(ctx, {})).items as APIServiceView[]) existing.set(s.metadata.name ?? '', s);
    for (const [name, gv] of wanted) {
      const cur = existing.get(name);
      if (cur !== undefined) continue;
      const obj = {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
        metadata: { name, labels: { [AUTOMANAGED_LABEL]: 'true' } },
        spec: { group: gv.group, version: gv.version, groupPriorityMinimum: 1000, versionPriority: 100 },
      };
      try {
        await this.apiServices.create(ctx, obj as KubeObject, undefined, { dryRun: false });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      await markLocalAvailable(this.apiServices, name);
    }
    for (const [name, s] of existing) {
      if (wanted.has(name) || s.metadata.labels?.[AUTOMANAGED_LABEL] !== 'true') continue;
      try {
        await this.apiServices.delete(ctx, name, undefined, {});
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}
