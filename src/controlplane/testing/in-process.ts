// A whole control plane in this process with no socket: requests go through the composed handler
// chain (filters, director, handlers, registry, an in-memory SQLite store) by inject(), as a
// client would send them. Every request is system:masters' (admin).
// No Go counterpart: test harness.
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { inject, type InjectRequest, type InjectResponse } from '../../server/testing/inject.ts';
import { openSqliteBackend } from '../../storage/sqlite/sqlite-backend.ts';
import { newControlPlane, type ControlPlane } from '../instance.ts';

export interface InProcessServer {
  readonly controlPlane: ControlPlane;
  request(req: InjectRequest): Promise<InjectResponse>;
  close(): Promise<void>;
}

const ADMIN: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };

/** `runtimeConfig` as --runtime-config (default api/all=true: every group version kapi serves). */
export async function startInProcess(runtimeConfig: Readonly<Record<string, string>> = { 'api/all': 'true' }): Promise<InProcessServer> {
  const backend = await openSqliteBackend({ path: ':memory:' });
  let cp: ControlPlane;
  try {
    cp = await newControlPlane({
      backend, etcdPrefix: '/registry',
      authenticator: { authenticate: () => ADMIN },
      anonymousAllowed: () => false, authorizationModes: ['AlwaysAllow'],
      maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200, requestTimeoutSeconds: 60, minRequestTimeoutSeconds: 1800,
      runtimeConfig, kubernetesServiceIP: '10.0.0.1', advertiseAddress: '192.0.2.10',
      serviceClusterIPRange: { text: '10.0.0.0/24' }, serviceNodePortRange: { base: 30000, size: 2768 }, eventTTLSeconds: 3600,
      caCert: '', admission: { enable: [], disable: [] },
    });
    await cp.start(6443);
  } catch (err) {
    await backend.close();
    throw err;
  }
  const handler = cp.server.handle.bind(cp.server);
  return {
    controlPlane: cp,
    request: (req) => inject(handler, req),
    async close() {
      await cp.stop();
      await backend.close();
    },
  };
}
