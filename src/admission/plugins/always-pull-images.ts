// AlwaysPullImages: every container (init, regular, ephemeral) and image volume of a pod that is
// created, or updated with an image it did not have, pulls its image always, so that a pod cannot
// use an image cached on the node without the credentials to pull it. Validation refuses a pod a
// later mutating step set back, with a 500 as kube's (its aggregate is not a status).
// Counterpart of plugin/pkg/admission/alwayspullimages.
import { newUnknownError } from '../../apimachinery/errors/status-error.ts';
import { aggregateMessages, formatFieldError, notSupported } from '../../apimachinery/errors/field-errors.ts';
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import { type Attributes, type Plugin, onResources } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

type Container = corev1.Container | corev1.EphemeralContainer;
type PodSpec = corev1.PodSpec;
type PodLike = WireObject<corev1.Pod>;

/** VisitContainersWithPath: init containers, containers, then ephemeral containers, with their paths. */
function containers(spec: PodSpec | undefined): { c: Container; path: string }[] {
  const out: { c: Container; path: string }[] = [];
  for (const f of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (spec?.[f] ?? []).forEach((c, i) => out.push({ c, path: `spec.${f}[${i}]` }));
  }
  return out;
}

function shouldIgnore(a: Attributes): boolean {
  if (a.subresource !== '' || a.resource.group !== '' || a.resource.resource !== 'pods' || a.object === undefined) return true;
  if (a.operation !== 'UPDATE' || a.oldObject === undefined) return false;
  // An update that brings no image the pod did not have already is left alone.
  const old = new Set(containers((a.oldObject as PodLike).spec).map(({ c }) => c.image ?? ''));
  return containers((a.object as PodLike).spec).every(({ c }) => old.has(c.image ?? ''));
}

export function alwaysPullImages(): Plugin {
  return {
    name: 'AlwaysPullImages',
    resources: onResources('/pods'),
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit(_ctx, a) {
      if (shouldIgnore(a)) return Promise.resolve();
      const spec = (a.object as PodLike).spec;
      for (const { c } of containers(spec)) c.imagePullPolicy = 'Always';
      for (const v of spec?.volumes ?? []) if (v.image !== undefined) v.image.pullPolicy = 'Always';
      return Promise.resolve();
    },
    validate(_ctx, a) {
      if (shouldIgnore(a)) return Promise.resolve();
      const spec = (a.object as PodLike).spec;
      const forbidden = `pods "${admissionName(a)}" is forbidden: `;
      const errs = containers(spec).filter(({ c }) => c.imagePullPolicy !== 'Always')
        .map(({ c, path }) => forbidden + formatFieldError(notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy ?? '', ['Always'])));
      (spec?.volumes ?? []).forEach((v, i) => {
        if (v.image !== undefined && v.image.pullPolicy !== 'Always') {
          errs.push(forbidden + formatFieldError(notSupported(`spec.volumes[${i}].image.pullPolicy`, v.image.pullPolicy ?? '', ['Always'])));
        }
      });
      return errs.length > 0 ? Promise.reject(newUnknownError(aggregateMessages(errs))) : Promise.resolve();
    },
  };
}
