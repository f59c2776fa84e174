// The Node authorizer's graph, answered from the stores on each question rather than kept as a
// graph: an object is related to a node when a pod bound to the node (spec.nodeName) uses it
// (service account, secrets, config maps, claims, resource claims; a mirror pod uses nothing),
// a persistent volume through the claim its claimRef names and the secrets it names, and volume
// attachments and resource slices through their spec.nodeName.
// Counterpart of plugin/pkg/auth/authorizer/node/graph.go and graph_populator.go.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import {
  podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretRefs,
} from '../admission/plugins/pod-references.ts';
import type { NodeGraph, VertexType } from '../authz/node/node-authorizer.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

type WithSpec = KubeObject & { spec?: { nodeName?: string; serviceAccountName?: string; claimRef?: { namespace?: string; name?: string } } };

export interface NodeGraphSources {
  /** Every pod (an informer's cache). */
  readonly pods: () => Promise<KubeObject[]>;
  /** Any store by "resource" or "resource.group". */
  readonly storeFor: (resource: string) => ResourceStore<KubeObject> | undefined;
}

const MIRROR = 'kubernetes.io/config.mirror';

export function storeNodeGraph(src: NodeGraphSources): NodeGraph {
  const list = async (resource: string): Promise<KubeObject[]> => {
    const s = src.storeFor(resource);
    return s === undefined ? [] : (await s.list(systemContext(''), {})).items;
  };
  const nodeNameOf = async (resource: string, name: string): Promise<string | undefined> =>
    ((await list(resource)).find((o) => o.metadata.name === name) as WithSpec | undefined)?.spec?.nodeName;
  return {
    async hasPathFrom(node, type: VertexType, namespace, name) {
      if (type === 'volumeattachment') return await nodeNameOf('volumeattachments.storage.k8s.io', name) === node;
      if (type === 'resourceslice') return await nodeNameOf('resourceslices.resource.k8s.io', name) === node;
      const pods = ((await src.pods()) as WithSpec[]).filter((p) => p.spec?.nodeName === node);
      if (type === 'pod') return pods.some((p) => p.metadata.namespace === namespace && p.metadata.name === name);
      const using = pods.filter((p) => p.metadata.annotations?.[MIRROR] === undefined);
      const inNS = using.filter((p) => p.metadata.namespace === namespace);
      switch (type) {
        case 'serviceaccount': return inNS.some((p) => p.spec?.serviceAccountName === name);
        case 'configmap': return inNS.some((p) => podConfigMapNames(p).includes(name));
        case 'pvc': return inNS.some((p) => podClaimNames(p).includes(name));
        case 'resourceclaim': return inNS.some((p) => podResourceClaimNames(p).includes(name));
        case 'secret': case 'pv': {
          if (type === 'secret' && inNS.some((p) => podSecretNames(p).includes(name))) return true;
          // Through the persistent volumes bound to the claims of the node's pods.
          const claims = new Set(using.flatMap((p) => podClaimNames(p).map((c) => `${p.metadata.namespace ?? ''}/${c}`)));
          const pvs = ((await list('persistentvolumes')) as WithSpec[])
            .filter((pv) => claims.has(`${pv.spec?.claimRef?.namespace ?? ''}/${pv.spec?.claimRef?.name ?? ''}`));
          if (type === 'pv') return pvs.some((pv) => pv.metadata.name === name);
          return pvs.some((pv) => pvSecretRefs(pv).some((r) => r.namespace === namespace && r.name === name));
        }
        default: return false;
      }
    },
  };
}
