// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass): an Ingress created
// without spec.ingressClassName or the kubernetes.io/ingress.class annotation gets the default
// IngressClass, the newest one when several are marked.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { networkingv1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';
import { newestDefault } from './default-class.ts';

export const IS_DEFAULT_INGRESS_CLASS = 'ingressclass.kubernetes.io/is-default-class';
/** networkingv1beta1.AnnotationIngressClass. */
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** Every IngressClass. */
export type IngressClassLister = () => Promise<readonly KubeObject[]>;

type Ingress = KubeObject & Pick<networkingv1.Ingress, 'spec'>;

export function defaultIngressClass(list: IngressClassLister): Plugin {
  return {
    name: 'DefaultIngressClass',
    resources: onResources('networking.k8s.io/ingresses'),
    handles: (op: Operation) => op === 'CREATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource.group !== 'networking.k8s.io' ||
          a.resource.resource !== 'ingresses' || a.object === undefined) return;
      const ing = a.object as Ingress;
      if (ing.spec?.ingressClassName !== undefined || ing.metadata.annotations?.[INGRESS_CLASS_ANNOTATION] !== undefined) return;
      const def = newestDefault(await list(), (c) => c.metadata.annotations?.[IS_DEFAULT_INGRESS_CLASS] === 'true');
      if (def === undefined) return;
      ing.spec = { ...ing.spec, ingressClassName: def.metadata.name ?? '' };
    },
  };
}
