// kube's naming, establishing and finalizer controllers for CRDs, in one small loop:
// - naming: accepts spec.names unless another CRD of the group already uses one of them
//   (NamesAccepted True/NoConflicts, or False/<Name>Conflict);
// - establishing: Established True once the names are accepted;
// - finalizer: a CRD marked for deletion has its custom resources deleted, then loses the
//   customresourcecleanup finalizer and goes away.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/controller/status,
// k8s.io/apiextensions-apiserver/pkg/controller/establish and
// k8s.io/apiextensions-apiserver/pkg/controller/finalizer.
import { isConflict, isNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../../client/controller.ts';
import type { SharedInformer } from '../../client/cache/shared-informer.ts';
import type { SyncResult } from '../../client/workqueue/worker.ts';
import { setCondition } from '../crd/conditions.ts';
import {
  CLEANUP_FINALIZER, conditionOf, type CustomResourceDefinition, type CustomResourceDefinitionNames,
} from '../v1/types.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';

type CRD = CustomResourceDefinition;
const RETRY_MS = 500;

export interface CRDControllerOptions {
  /** The CRD ResourceStore (customresourcedefinitions.apiextensions.k8s.io). */
  readonly crds: ResourceStore<KubeObject>;
  /** Called with the CRD about to be written as established (CustomResourceServer.observe). */
  readonly beforeEstablish?: (crd: CRD) => void;
  /** A Store of the CRD's custom resources (CustomResourceServer.newStoreFor), for cleanup. */
  readonly instances: (crd: CRD) => ResourceStore<KubeObject> | undefined;
  /** The shared informers (absent: a private one). */
  readonly controller?: ControllerOptions;
}

/** The names in use by other CRDs of the same group, and the first one that clashes. */
function conflict(crd: CRD, others: readonly CRD[]): { reason: string; message: string } | undefined {
  const n = crd.spec.names;
  for (const o of others) {
    if (o.metadata.name === crd.metadata.name || o.spec.group !== crd.spec.group) continue;
    const a: Partial<CustomResourceDefinitionNames> = o.status?.acceptedNames ?? {};
    const used = new Set([a.plural, a.singular, ...(a.shortNames ?? [])].filter((x): x is string => x !== undefined && x !== ''));
    if (used.has(n.plural)) return { reason: 'PluralConflict', message: `"${n.plural}" is already in use` };
    if (n.singular !== undefined && used.has(n.singular)) return { reason: 'SingularConflict', message: `"${n.singular}" is already in use` };
    for (const s of n.shortNames ?? []) if (used.has(s)) return { reason: 'ShortNamesConflict', message: `"${s}" is already in use` };
    if (a.kind !== undefined && a.kind !== '' && (a.kind === n.kind || a.listKind === n.kind)) {
      return { reason: 'KindConflict', message: `"${n.kind}" is already in use` };
    }
    if (n.listKind !== undefined && (a.kind === n.listKind || a.listKind === n.listKind)) {
      return { reason: 'ListKindConflict', message: `"${n.listKind}" is already in use` };
    }
  }
  return undefined;
}

export class CRDController extends Controller {
  private readonly crdInformer: SharedInformer;

  constructor(private readonly opts: CRDControllerOptions) {
    super('crd controller', opts.controller);
    const enqueue = (crd: KubeObject): void => { this.queue.add(crd.metadata.name ?? ''); };
    this.crdInformer = this.follow(opts.crds, 'customresourcedefinitions.apiextensions.k8s.io', {
      onAdd: enqueue, onUpdate: (_old, crd) => enqueue(crd),
    });
  }

  protected async sync(name: string): Promise<SyncResult> {
    if (name === '') return;
    return (await this.reconcile(name)) ? undefined : { requeueAfterMs: RETRY_MS };
  }

  /** Resolves true when nothing is left to do for the CRD (until its next change). */
  private async reconcile(name: string): Promise<boolean> {
    const ctx = systemContext('');
    try {
      const crd = await this.opts.crds.get(ctx, name, {}) as CRD;
      if (crd.metadata.deletionTimestamp !== undefined) return await this.finalize(crd);
      const clash = conflict(crd, this.crdInformer.list() as CRD[]);
      const next = structuredClone(crd);
      if (clash === undefined) {
        next.status ??= {};
        next.status.acceptedNames = structuredClone(crd.spec.names);
        setCondition(next, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
        setCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
      } else {
        setCondition(next, { type: 'NamesAccepted', status: 'False', reason: clash.reason, message: clash.message });
        if (conditionOf(next, 'Established')?.status !== 'True') {
          setCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
        }
      }
      if (JSON.stringify(next.status) === JSON.stringify(crd.status)) return true;
      if (clash === undefined) this.opts.beforeEstablish?.(next);
      await this.opts.crds.updateUnchecked(ctx, name, (cur) => {
        if (cur.metadata.resourceVersion !== crd.metadata.resourceVersion) throw new RetryLater();
        return { ...cur, status: next.status } as KubeObject;
      }, { dryRun: false });
      return true;
    } catch (err) {
      if (isNotFound(err)) return true;
      if (!(err instanceof RetryLater) && !isConflict(err)) console.error(`crd controller: ${name}:`, err);
      return false;
    }
  }

  private async finalize(crd: CRD): Promise<boolean> {
    const name = crd.metadata.name ?? '';
    const ctx = systemContext('');
    if (!(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return true;
    const store = this.opts.instances(crd);
    if (store !== undefined) {
      await this.opts.crds.updateUnchecked(ctx, name, (cur) => {
        setCondition(cur as CRD, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress' });
        return cur;
      }, { dryRun: false });
      await store.deleteCollection(systemContext(''), undefined, { propagationPolicy: 'Background' }, {});
      if ((await store.list(systemContext(''), { limit: 1 })).items.length > 0) return false;
    }
    await this.opts.crds.updateUnchecked(ctx, name, (cur) => {
      const c = cur as CRD;
      setCondition(c, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
      c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      return c;
    }, { dryRun: false });
    await this.opts.crds.delete(ctx, name, undefined, {});
    return true;
  }
}

class RetryLater extends Error {}
