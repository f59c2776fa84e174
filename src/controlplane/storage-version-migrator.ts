// kube-controller-manager's storage version migrator, run in-process: a StorageVersionMigration
// names a resource; the controller records the resource's current list resourceVersion in
// status.resourceVersion, marks the migration Running, rewrites every object of the resource
// unchanged (a no-op update with the object's uid and resourceVersion as preconditions: storage
// then writes it again in the current storage version, under the current encryption key), and ends
// with Succeeded (Running turned False) or Failed. An object changed or deleted meanwhile (Conflict,
// NotFound) needs no migration and is skipped. Condition types and reasons are kube's.
// Counterpart of pkg/controller/storageversionmigrator (resourceversion.go, storageversionmigrator.go, util.go).
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { MetaCondition } from '../apimachinery/validation/conditions.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import type { StorageVersionMigration } from '../apis/storagemigration/v1beta1/types.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const NAME = 'storageversionmigrations.storagemigration.k8s.io';
export const MIGRATOR_NAME = 'storage-version-migrator-controller';
const SUCCEEDED_REASON = 'StorageVersionMigrationSucceeded';
const RUNNING_REASON = 'StorageVersionMigrationInProgress';
const FAILED_REASON = 'StorageVersionMigrationFailed';

const isTrue = (svm: StorageVersionMigration, type: string): boolean =>
  (svm.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** kube's setStatusConditions: adds a True condition once; Succeeded/Failed turn Running False. */
export function withCondition(svm: StorageVersionMigration, type: 'Running' | 'Succeeded' | 'Failed', reason: string,
  message: string, now = new Date()): StorageVersionMigration {
  if (isTrue(svm, type)) return svm;
  const time = `${now.toISOString().slice(0, 19)}Z`;
  const conditions: MetaCondition[] = (svm.status?.conditions ?? []).map((c) =>
    ((type === 'Succeeded' || type === 'Failed') && c.type === 'Running' && c.status === 'True'
      ? { ...c, status: 'False', lastTransitionTime: time } : c));
  conditions.push({ type, status: 'True', lastTransitionTime: time, reason, message });
  return { ...svm, status: { ...svm.status, conditions } };
}

export interface StorageVersionMigratorOptions {
  readonly migrations: ResourceStore<KubeObject>;
  /** The store of a served resource ("secrets", "deployments.apps", "widgets.example.com"). */
  readonly storeFor: (groupResource: string) => ResourceStore<KubeObject> | undefined;
  readonly controller?: ControllerOptions;
}

export class StorageVersionMigrator extends Controller {
  private readonly informer: SharedInformer;

  constructor(private readonly opts: StorageVersionMigratorOptions) {
    super(MIGRATOR_NAME, opts.controller ?? {});
    const enqueue = (o: KubeObject): void => { this.queue.add(o.metadata.name ?? ''); };
    this.informer = this.follow(opts.migrations, NAME, { onAdd: enqueue, onUpdate: (_old, o) => enqueue(o) });
  }

  private async writeStatus(name: string, next: (cur: StorageVersionMigration) => StorageVersionMigration): Promise<void> {
    await this.opts.migrations.updateUnchecked(systemContext(''), name, (cur) => next(cur as StorageVersionMigration), { dryRun: false });
  }

  protected async sync(name: string): Promise<void> {
    const svm = this.informer.get('', name) as StorageVersionMigration | undefined;
    if (svm === undefined || isTrue(svm, 'Succeeded') || isTrue(svm, 'Failed')) return;
    const r = svm.spec?.resource ?? {};
    const gr = (r.group ?? '') === '' ? r.resource ?? '' : `${r.resource ?? ''}.${r.group ?? ''}`;
    const store = this.opts.storeFor(gr);
    if ((svm.status?.resourceVersion ?? '') === '') {
      // kube's resource-version controller: the resource's newest list resourceVersion, or Failed.
      if (store === undefined) {
        await this.writeStatus(name, (cur) => withCondition(cur, 'Failed', FAILED_REASON, 'resource does not exist in discovery'));
        return;
      }
      const list = await store.list(systemContext(''), { limit: 1 });
      await this.writeStatus(name, (cur) => ({ ...cur, status: { ...cur.status, resourceVersion: list.metadata.resourceVersion ?? '' } }));
      return;
    }
    if (store === undefined) {
      await this.writeStatus(name, (cur) => withCondition(cur, 'Failed', FAILED_REASON, 'resource not found'));
      return;
    }
    await this.writeStatus(name, (cur) => withCondition(cur, 'Running', RUNNING_REASON, ''));
    const items = (await store.list(systemContext(''), {})).items;
    for (const item of items) {
      const ctx = systemContext(item.metadata.namespace ?? '');
      const rv = item.metadata.resourceVersion ?? '';
      try {
        await store.update(ctx, item.metadata.name ?? '', {
          preconditions: { uid: item.metadata.uid ?? '' },
          updatedObject: (_c, cur) => ({ ...(cur ?? item), metadata: { ...(cur ?? item).metadata, resourceVersion: rv } }),
        }, undefined, undefined, false, { dryRun: false, fieldManager: MIGRATOR_NAME });
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) continue;
        await this.writeStatus(name, (cur) => withCondition(cur, 'Failed', FAILED_REASON, 'migration encountered unhandled error'));
        return;
      }
    }
    await this.writeStatus(name, (cur) => withCondition(cur, 'Succeeded', SUCCEEDED_REASON, ''));
  }
}
