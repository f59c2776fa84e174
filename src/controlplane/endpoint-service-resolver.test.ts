import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { StatusError } from '../apimachinery/errors/status-error.ts';
import { newEndpointServiceResolver, type NamespacedReader } from './endpoint-service-resolver.ts';

function reader(objs: KubeObject[]): NamespacedReader {
  return {
    get: (ns, name) => Promise.resolve(objs.find((o) => o.metadata.namespace === ns && o.metadata.name === name)),
    list: (ns) => Promise.resolve(objs.filter((o) => o.metadata.namespace === ns)),
  };
}
const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { namespace: 'ns', name }, spec } as KubeObject);
const slice = (name: string, service: string, body: Record<string, unknown>): KubeObject =>
  ({ metadata: { namespace: 'ns', name, labels: { 'kubernetes.io/service-name': service } }, addressType: 'IPv4', ...body } as KubeObject);

describe('endpoint service resolver', () => {
  const services = [
    svc('hook', { type: 'ClusterIP', ports: [{ name: 'https', port: 443 }] }),
    svc('plain', { ports: [{ port: 8443 }] }),
    svc('ext', { type: 'ExternalName', externalName: 'x.example' }),
    svc('empty', { ports: [{ port: 443 }] }),
    svc('notready', { ports: [{ port: 443 }] }),
  ];
  const slices = [
    slice('hook-a', 'hook', { ports: [{ name: 'https', port: 9443 }], endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }] }),
    slice('plain-a', 'plain', { ports: [{ port: 7443 }], endpoints: [{ addresses: ['127.0.0.2'] }] }),
    slice('notready-a', 'notready', { ports: [{ name: '', port: 1 }], endpoints: [{ addresses: ['127.0.0.3'], conditions: { ready: false } }] }),
  ];
  const resolver = newEndpointServiceResolver(() => ({ services: reader(services), endpointSlices: reader(slices) }));
  const cases: { name: string; service: string; port: number; want?: string; error?: { message: string; code?: number } }[] = [
    { name: 'a named port maps to the slice port of that name', service: 'hook', port: 443, want: 'https://127.0.0.1:9443' },
    { name: 'an unnamed port', service: 'plain', port: 8443, want: 'https://127.0.0.2:7443' },
    { name: 'no such service', service: 'nope', port: 443, error: { message: 'service "nope" not found', code: 404 } },
    { name: 'an ExternalName service', service: 'ext', port: 443, error: { message: 'unsupported service type "ExternalName"' } },
    { name: 'a port the service lacks', service: 'hook', port: 80, error: { message: 'no service port 80 found for service "hook"', code: 503 } },
    { name: 'no slices', service: 'empty', port: 443, error: { message: 'no endpoints available for service "empty"', code: 503 } },
    { name: 'no ready endpoint', service: 'notready', port: 443, error: { message: 'no endpoints available for service "notready"', code: 503 } },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const p = resolver.resolveEndpoint('ns', tc.service, tc.port);
      if (tc.want !== undefined) { assert.equal((await p).href, `${tc.want}/`); return; }
      await assert.rejects(p, (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.equal(e.message, tc.error?.message);
        if (tc.error?.code !== undefined) assert.equal(e instanceof StatusError ? e.status.code : 0, tc.error.code);
        return true;
      });
    });
  }
});
