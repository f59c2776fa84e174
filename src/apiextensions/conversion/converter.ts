// The converter of a CRD with conversion strategy Webhook; when its webhook client cannot be
// built (a CA bundle without certificates), every conversion fails with that error, as kube's
// CRD handler answers every request of such a CRD.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/conversion/converter.go (CRConverterFactory).
import { newInternalError } from '../../apimachinery/errors/status-error.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { ClientManager } from '../../webhook/index.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { WebhookConverter, type CRConverter } from './webhook-converter.ts';

export function newConverter(crd: DeepReadonly<CustomResourceDefinition>, clients: ClientManager): CRConverter {
  try {
    return new WebhookConverter(crd, clients);
  } catch (err) {
    const failure = newInternalError(err);
    return { convert: (objs, apiVersion) => (objs.every((o) => o.apiVersion === apiVersion) ? Promise.resolve([...objs]) : Promise.reject(failure)) };
  }
}
