// apiextensions.k8s.io/v1 customresourcedefinitions: cluster-scoped, short name crd, category
// api-extensions, with a status subresource. DELETE adds kube's cleanup finalizer and the
// Terminating condition first: the CRD lingers until the finalizer controller removed its CRs.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/etcd.go.
import { crdStorageEncoding } from '../v1beta1/storage-conversion.ts';
import { newConflict } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { ValidateObjectFunc } from '../../registry/rest/capabilities.ts';
import type { ResourceDefinition, ResourceStore } from '../../registry/rest/strategy.ts';
import { CLEANUP_FINALIZER, GROUP, type CustomResourceDefinition } from '../v1/types.ts';
import { setCondition } from './conditions.ts';
import { defaultCRD } from './defaults.ts';
import { crdStatusStrategy, crdStrategy } from './strategy.ts';

/**
 * The CRD Store with kube's first-delete step. A view created with Object.create shares the
 * Store's state, so list, update and deleteCollection (which calls delete) all go through it.
 */
function crdStore(base: ResourceStore<CustomResourceDefinition>): ResourceStore<CustomResourceDefinition> {
  const view = Object.create(base) as ResourceStore<CustomResourceDefinition>;
  view.delete = async (ctx: RequestContext, name: string, validate: ValidateObjectFunc | undefined, opts: DeleteOptions):
    Promise<{ object: KubeObject | Status; deletedImmediately: boolean }> => {
    const dryRun = (opts.dryRun ?? []).includes('All');
    const existing = await base.get(ctx, name, {});
    const rv = opts.preconditions?.resourceVersion;
    if (rv !== undefined && rv !== existing.metadata.resourceVersion) {
      throw newConflict(base.qualifiedResource, name,
        `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${existing.metadata.resourceVersion ?? ''}`);
    }
    let next = opts;
    if (existing.metadata.deletionTimestamp === undefined && !dryRun) {
      await base.updateUnchecked(ctx, name, (cur) => {
        const crd = cur as CustomResourceDefinition;
        const fs = crd.metadata.finalizers ?? [];
        if (!fs.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...fs, CLEANUP_FINALIZER];
        setCondition(crd, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' });
        return crd;
      }, { dryRun: false });
      if (opts.preconditions !== undefined) {
        const { resourceVersion: _rv, ...rest } = opts.preconditions;
        next = { ...opts, preconditions: rest };
      }
    }
    return base.delete.call(view, ctx, name, validate, next);
  };
  return view;
}

export const customResourceDefinitions: ResourceDefinition<CustomResourceDefinition> = {
  group: GROUP, kind: 'CustomResourceDefinition', resource: 'customresourcedefinitions', singular: 'customresourcedefinition',
  shortNames: ['crd', 'crds'], categories: ['api-extensions'], namespaced: false,
  strategy: crdStrategy,
  statusStrategy: crdStatusStrategy,
  defaults: defaultCRD,
  customizeStorage: (store) => crdStore(store),
  storageEncoding: crdStorageEncoding,
};
