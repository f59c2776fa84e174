// How a webhook's Service reference becomes an address to dial.
// Counterpart of k8s.io/apiserver/pkg/util/webhook/serviceresolver.go.

/** Resolves a Service port to the `https://host:port` URL of something that serves it. */
export interface ServiceResolver {
  /**
   * Rejects when the service cannot be resolved (kube's texts: `service "x" not found`, a
   * ServiceUnavailable StatusError `no endpoints available for service "x"`, ...).
   */
  resolveEndpoint(namespace: string, name: string, port: number): Promise<URL>;
}

/** The service's cluster DNS name (defaultServiceResolver): needs a cluster DNS to be dialled. */
export const defaultServiceResolver: ServiceResolver = {
  resolveEndpoint(namespace, name, port) {
    if (name === '' || namespace === '' || port === 0) {
      return Promise.reject(new Error('cannot resolve an empty service name or namespace or port'));
    }
    return Promise.resolve(new URL(`https://${name}.${namespace}.svc:${String(port)}`));
  },
};
