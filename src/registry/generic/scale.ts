// The scale subresource: a resource's replicas seen as an autoscaling/v1 Scale. GET builds the
// Scale from the object; PUT and PATCH change only spec.replicas of the object, and move the
// ownership of replicas in its managedFields the way kube's ScaleHandler does.
// Counterpart of the scale REST of pkg/registry/apps/deployment/storage and
// k8s.io/apimachinery/pkg/util/managedfields (ScaleHandler).
import { invalid } from '../../apimachinery/errors/field-errors.ts';
import { newBadRequest, newConflict, newInvalid, OPTIMISTIC_LOCK_MESSAGE } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { replicasPath, scaleToParent, scaleToSubresource } from '../../apimachinery/managedfields/index.ts';
import { apiVersionOf } from '../../apimachinery/schema/group-version.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type {
  GetOptions, Getter, UpdatedObjectInfo, Updater, UpdateOptions, ValidateObjectFunc, ValidateObjectUpdateFunc,
} from '../rest/capabilities.ts';
import type { DeepReadonly, ResourceStore, ScaleDefinition } from '../rest/strategy.ts';

export const SCALE_GROUP_VERSION = { group: 'autoscaling', version: 'v1' } as const;

interface Scale extends KubeObject {
  spec?: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

/** The Scale of `obj`. spec.replicas is omitempty in autoscaling/v1 (status.replicas is not): 0 leaves spec empty. */
export function toScale<T extends KubeObject>(def: ScaleDefinition<T>, obj: KubeObject): Scale {
  const o = obj as DeepReadonly<T>;
  const m = obj.metadata;
  const selector = def.selector(o);
  const replicas = def.specReplicas(o);
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: {
      ...(m.name !== undefined ? { name: m.name } : {}), ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
      ...(m.uid !== undefined ? { uid: m.uid } : {}), ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
      creationTimestamp: m.creationTimestamp ?? null,
    },
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: def.statusReplicas(o), ...(selector !== '' ? { selector } : {}) },
  };
}

/**
 * `validateScale: false` leaves the replicas check to the parent's validation: kube's custom
 * resource scale REST validates the updated custom resource (its schema and scale paths) instead
 * of the Scale.
 */
export function scaleStorage<T extends KubeObject>(store: ResourceStore<T>, def: ScaleDefinition<T>,
  opts: { validateScale: boolean } = { validateScale: true }): Getter & Updater {
  const kind = `${store.definition.kind}`;
  const path = replicasPath(def.specReplicasPath);
  return {
    async get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
      return toScale(def, await store.get(ctx, name, opts));
    },
    async update(ctx: RequestContext, name: string, info: UpdatedObjectInfo, _vc: ValidateObjectFunc | undefined,
      vu: ValidateObjectUpdateFunc | undefined, _force: boolean, updateOpts: UpdateOptions): Promise<{ object: KubeObject; created: boolean }> {
      // toScaleUpdateValidation: validating admission sees the Scales, not the parent objects.
      const scaleValidation: ValidateObjectUpdateFunc | undefined = vu === undefined ? undefined
        : (obj, old) => vu(toScale(def, obj as T), toScale(def, old as T));
      const { object } = await store.update(ctx, name, {
        ...(info.preconditions !== undefined ? { preconditions: info.preconditions } : {}),
        updatedObject: async (c, old) => {
          if (old === undefined) throw newBadRequest(`${kind} "${name}" not found`);
          const parentEntries = old.metadata.managedFields;
          const oldScale = toScale(def, old);
          const scaleEntries = scaleToSubresource(parentEntries, path);
          if (scaleEntries !== undefined) oldScale.metadata.managedFields = scaleEntries;
          const scale = await info.updatedObject(c, oldScale) as Scale;
          // As kube's update handler checks every body: a Scale names the object of the URL.
          const bodyName = scale.metadata.name ?? '';
          if (bodyName !== '' && bodyName !== name) {
            throw newBadRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
          }
          const replicas = scale.spec?.replicas ?? 0;
          if (opts.validateScale && (!Number.isInteger(replicas) || replicas < 0)) {
            throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name,
              [invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
          }
          const rv = scale.metadata.resourceVersion ?? '';
          if (rv !== '' && rv !== old.metadata.resourceVersion) throw newConflict(store.qualifiedResource, name, OPTIMISTIC_LOCK_MESSAGE);
          const next = structuredClone(old) as T;
          def.setSpecReplicas(next, replicas);
          // The request's version of the parent (apps/v1 for deployments/scale) records the owner.
          const groupVersion = c.info.apiVersion !== '' ? apiVersionOf({ group: c.info.apiGroup, version: c.info.apiVersion }) : old.apiVersion ?? '';
          const entries = scaleToParent(parentEntries, scale.metadata.managedFields, groupVersion, path);
          if (entries === undefined) delete next.metadata.managedFields; else next.metadata.managedFields = entries;
          return next;
        },
      }, undefined, scaleValidation, false, updateOpts);
      return { object: toScale(def, object), created: false };
    },
  };
}
