// OwnerReferencesPermissionEnforcement: changing an object's ownerReferences needs permission to
// delete the object (on update), and a new blockOwnerDeletion reference needs permission to update
// the finalizers of the owner (resolved to its resources through the RESTMapper), unless the
// user may update finalizers of everything. pods/status is exempt (old kubelets rewrite it).
// Counterpart of plugin/pkg/admission/gc.
import { isDeepStrictEqual } from 'node:util';
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { resourceAttributes, type AdmissionAuthorizer, type AuthorizationAttributes } from '../authorizer.ts';
import type { Attributes, Plugin } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

export interface RESTMapping {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/** RESTMapper.RESTMappings(GroupKind, version): throws the mapper's error (NoKindMatchError's text). */
export type RESTMapper = (group: string, kind: string, version: string) => RESTMapping[];

interface OwnerReference { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }

const refsOf = (o: KubeObject | undefined): OwnerReference[] => (o?.metadata.ownerReferences ?? []) as OwnerReference[];

function isChangingOwnerReference(obj: KubeObject | undefined, old: KubeObject | undefined): boolean {
  if (obj === undefined) return false;
  if (old === undefined) return refsOf(obj).length > 0;
  const a = refsOf(old);
  const b = refsOf(obj);
  return a.length !== b.length || a.some((r, i) => !isDeepStrictEqual(r, b[i]));
}

function newBlockingRefs(obj: KubeObject | undefined, old: KubeObject | undefined): OwnerReference[] {
  const blocking = refsOf(obj).filter((r) => r.blockOwnerDeletion === true);
  if (old === undefined) return blocking;
  const byUID = new Map(refsOf(old).map((r) => [r.uid, r]));
  return blocking.filter((r) => byUID.get(r.uid)?.blockOwnerDeletion !== true);
}

/** schema.ParseGroupVersion. */
function parseGroupVersion(gv: string): { group: string; version: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Error(`unexpected GroupVersion string: ${gv}`);
}

const goErr = (e: Error | undefined): string => (e === undefined ? '<nil>' : e.message);

export function ownerReferencesPermissionEnforcement(authz: AdmissionAuthorizer, mapper: RESTMapper): Plugin {
  const forbid = (a: Attributes, msg: string): Error => newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), msg);
  const finalizeAnything = (user: UserInfo | undefined): AuthorizationAttributes =>
    resourceAttributes({ user, verb: 'update', apiGroup: '*', apiVersion: '*', resource: '*', subresource: 'finalizers', name: '*' });
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(ctx, a) {
      if (a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'status') return;
      if (!isChangingOwnerReference(a.object, a.oldObject)) return;
      const user = ctx.user;
      if (a.operation !== 'CREATE') {
        const r = await authz.authorize(resourceAttributes({
          user, verb: 'delete', namespace: a.namespace, apiGroup: a.resource.group, apiVersion: a.resource.version,
          resource: a.resource.resource, subresource: a.subresource, name: a.name,
        }));
        if (r.decision !== 'Allow') throw forbid(a, `cannot set an ownerRef on a resource you can't delete: ${r.reason}, ${goErr(r.error)}`);
      }
      const refs = newBlockingRefs(a.object, a.oldObject);
      if (refs.length === 0) return;
      if ((await authz.authorize(finalizeAnything(user))).decision === 'Allow') return;
      for (const ref of refs) {
        let mappings: RESTMapping[];
        try {
          const gv = parseGroupVersion(ref.apiVersion);
          mappings = mapper(gv.group, ref.kind, gv.version);
        } catch (err) {
          throw forbid(a, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${(err as Error).message}`);
        }
        for (const m of mappings) {
          const r = await authz.authorize(resourceAttributes({
            user, verb: 'update', apiGroup: m.group, apiVersion: m.version, resource: m.resource, subresource: 'finalizers',
            name: ref.name, namespace: m.namespaced ? a.namespace : '',
          }));
          if (r.decision !== 'Allow') {
            throw forbid(a, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${r.reason}, ${goErr(r.error)}`);
          }
        }
      }
    },
  };
}
