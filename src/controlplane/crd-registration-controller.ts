// kube's crdregistration controller with the part of the aggregator's autoregister controller it
// drives: every group version a CRD serves has a local APIService `<version>.<group>` labelled
// automanaged=true (groupPriorityMinimum 1000, versionPriority 100), Available, created again if
// deleted and set back if its spec is changed; an automanaged=true APIService goes when no CRD
// serves its group version. APIServices without the label, or labelled onstart, are left alone.
// Counterpart of k8s.io/kube-aggregator/pkg/controllers/autoregister and
// pkg/controlplane/controller/crdregistration.
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import type { apiregistrationv1 } from '../generated/types/index.gen.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import { AUTOMANAGED_LABEL, CRD_PRIORITY, markLocalAvailable, restoreSpec, specMatches } from './local-apiservices.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const RETRY_MS = 1000;

interface CRDView { spec?: { group?: string; versions?: readonly { name?: string; served?: boolean }[] } }
type APIServiceView = WireObject<apiregistrationv1.APIService>;

/** The `<version>.<group>` names of the group versions the CRDs serve, with their group and version. */
function servedGroupVersions(crds: readonly CRDView[]): Map<string, { group: string; version: string }> {
  const out = new Map<string, { group: string; version: string }>();
  for (const crd of crds) {
    const group = crd.spec?.group ?? '';
    for (const v of crd.spec?.versions ?? []) {
      if (v.served === true && v.name !== undefined && group !== '') out.set(`${v.name}.${group}`, { group, version: v.name });
    }
  }
  return out;
}

/** The one key: every sync compares all CRDs with all APIServices. */
const ALL = 'all';

export class CRDRegistrationController extends Controller {
  private readonly crdInformer: SharedInformer;

  constructor(crds: ResourceStore<KubeObject>, private readonly apiServices: ResourceStore<KubeObject>, opts: ControllerOptions = {}) {
    super('crd registration controller', { rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), ...opts });
    const kick = (): void => { this.queue.add(ALL); };
    this.crdInformer = this.follow(crds, 'customresourcedefinitions.apiextensions.k8s.io', { onAdd: kick, onUpdate: kick, onDelete: kick });
    // An APIService deleted, changed or added by someone else is checked again (autoregister's informer).
    this.follow(apiServices, 'apiservices.apiregistration.k8s.io', { onAdd: kick, onUpdate: kick, onDelete: kick });
  }

  override async start(): Promise<void> {
    await super.start();
    this.queue.add(ALL);
  }

  protected async sync(): Promise<void> {
    const ctx = systemContext('');
    const wanted = servedGroupVersions(this.crdInformer.list() as CRDView[]);
    const existing = new Map<string, APIServiceView>();
    for (const s of (await this.apiServices.list(ctx, {})).items as APIServiceView[]) existing.set(s.metadata.name ?? '', s);
    for (const [name, gv] of wanted) {
      const cur = existing.get(name);
      const want = { group: gv.group, version: gv.version, ...CRD_PRIORITY };
      if (cur !== undefined) {
        if (cur.metadata.labels?.[AUTOMANAGED_LABEL] === 'true' && !specMatches(cur.spec, want)) await restoreSpec(this.apiServices, name, want);
        continue;
      }
      const obj: APIServiceView = {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
        metadata: { name, labels: { [AUTOMANAGED_LABEL]: 'true' } },
        spec: want,
      };
      try {
        await this.apiServices.create(ctx, obj, undefined, { dryRun: false });
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
