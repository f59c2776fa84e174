// NodeDeclaredFeatureValidator (NodeDeclaredFeatures, beta and on in v1.36): an update of a pod on
// a node (spec or resize) that needs a node feature must go to a node declaring it in
// status.declaredFeatures. Of v1.36's features only two are inferred from an update: resizing
// pod-level resources and resizing a (non-sidecar) init container.
// Counterpart of plugin/pkg/admission/nodedeclaredfeatures and component-helpers/nodedeclaredfeatures.
import { isDeepStrictEqual } from 'node:util';
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { type Plugin, onResources } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';
import type { NodeGetter } from './pod-topology-labels.ts';
import { resourceListsEqual } from './runtime-class.ts';

type Lists = { requests?: Record<string, string>; limits?: Record<string, string> };
interface PodLike extends KubeObject {
  spec?: { nodeName?: string; resources?: Lists; initContainers?: { restartPolicy?: string; resources?: unknown }[] };
}

/** The features an update needs, in the framework's (name) order. */
export function requiredFeatures(old: PodLike, cur: PodLike): string[] {
  const out: string[] = [];
  const a = old.spec?.resources;
  const b = cur.spec?.resources;
  if ((a !== undefined || b !== undefined) && !(resourceListsEqual(a?.requests, b?.requests) && resourceListsEqual(a?.limits, b?.limits))) {
    out.push('InPlacePodLevelResourcesVerticalScaling');
  }
  const newInit = cur.spec?.initContainers ?? [];
  if ((old.spec?.initContainers ?? []).some((c, i) => c.restartPolicy !== 'Always' && !isDeepStrictEqual(c.resources, newInit[i]?.resources))) {
    out.push('InPlacePodVerticalScalingInitContainers');
  }
  return out;
}

export function nodeDeclaredFeatureValidator(getNode: NodeGetter): Plugin {
  return {
    name: 'NodeDeclaredFeatureValidator',
    resources: onResources('/pods'),
    handles: (op) => op === 'UPDATE',
    async validate(_ctx, a) {
      if (a.resource.group !== '' || a.resource.resource !== 'pods' || (a.subresource !== '' && a.subresource !== 'resize')) return;
      const pod = a.object as PodLike | undefined;
      const old = a.oldObject as PodLike | undefined;
      const nodeName = pod?.spec?.nodeName ?? '';
      if (pod === undefined || old === undefined || nodeName === '' || old.metadata.generation === pod.metadata.generation) return;
      const needed = requiredFeatures(old, pod);
      if (needed.length === 0) return;
      const forbid = (msg: string): Error => newForbidden({ group: '', resource: 'pods' }, admissionName(a), msg);
      const node = await getNode(nodeName) as (KubeObject & { status?: { declaredFeatures?: string[] } }) | undefined;
      if (node === undefined) throw forbid(`node "${nodeName}" not found`);
      const declared = new Set(node.status?.declaredFeatures ?? []);
      const missing = needed.filter((f) => !declared.has(f));
      if (missing.length > 0) throw forbid(`pod update requires features ${missing.join(', ')} which are not available on node "${nodeName}"`);
    },
  };
}
