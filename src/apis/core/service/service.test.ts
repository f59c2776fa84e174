import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Backend } from '../../../storage/backend.ts';
import { jsonCodec } from '../../../storage/json-codec.ts';
import { openSqliteBackend } from '../../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../../storage/store.ts';
import type { Service } from '../v1/types.ts';
import { defaultService } from './defaults.ts';
import { newIPAllocator, type IPAllocator } from './ipallocator.ts';
import { newPortAllocator, type PortAllocator } from './portallocator.ts';
import { newServiceDefinition, serviceStrategy } from './service.ts';
import { serviceExternalIP, servicePorts } from './table.ts';

const ctx = systemContext('default');

function svc(mutate: (s: Service) => void = () => {}): Service {
  const s: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };
  mutate(s);
  defaultService(s);
  return s;
}

describe('service defaults', () => {
  it('defaults a minimal service', () => {
    assert.deepEqual(svc().spec, {
      selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster',
    });
  });
  it('defaults NodePort and LoadBalancer fields', () => {
    const s = svc((s) => { s.spec.type = 'LoadBalancer'; });
    assert.equal(s.spec.externalTrafficPolicy, 'Cluster');
    assert.equal(s.spec.allocateLoadBalancerNodePorts, true);
  });
  it('defaults ClientIP affinity timeout', () => {
    assert.deepEqual(svc((s) => { s.spec.sessionAffinity = 'ClientIP'; }).spec.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
  });
});

describe('service validation', () => {
  const cases: { name: string; mutate: (s: Service) => void; want: string[] }[] = [
    { name: 'valid', mutate: () => {}, want: [] },
    { name: 'no ports', mutate: (s) => { s.spec.ports = []; }, want: ['spec.ports: Required value'] },
    { name: 'headless without ports is fine', mutate: (s) => { s.spec.ports = []; s.spec.clusterIP = 'None'; s.spec.clusterIPs = ['None']; }, want: [] },
    { name: 'names required with several ports', mutate: (s) => { s.spec.ports = [{ port: 80 }, { port: 443 }]; },
      want: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'] },
    { name: 'duplicate port names', mutate: (s) => { s.spec.ports = [{ name: 'a', port: 80 }, { name: 'a', port: 81 }]; },
      want: ['spec.ports[1].name: Duplicate value: "a"'] },
    { name: 'bad type', mutate: (s) => { s.spec.type = 'Magic'; },
      want: ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'] },
    // RelaxedServiceNameValidation (on in v1.36): a DNS-1123 label, so a leading digit is fine
    { name: 'name with a leading digit', mutate: (s) => { s.metadata.name = '1web'; }, want: [] },
    { name: 'bad name', mutate: (s) => { s.metadata.name = 'Bad_Name'; },
      want: ["metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"] },
    { name: 'external name required', mutate: (s) => { s.spec.type = 'ExternalName'; }, want: ['spec.externalName: Required value'] },
    { name: 'nodePort on ClusterIP', mutate: (s) => { s.spec.ports = [{ port: 80, nodePort: 30001 }]; },
      want: ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"] },
    { name: 'duplicate port', mutate: (s) => { s.spec.ports = [{ name: 'a', port: 80 }, { name: 'b', port: 80 }]; },
      want: ['spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}'] },
    { name: 'bad port', mutate: (s) => { s.spec.ports = [{ port: 0 }]; },
      want: ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(serviceStrategy.validate(ctx, svc(c.mutate)).map(formatFieldError), c.want));
  it('clusterIP may not change', () => {
    const old = svc((s) => { s.spec.clusterIP = '10.0.0.5'; s.spec.clusterIPs = ['10.0.0.5']; });
    const next = svc((s) => { s.spec.clusterIP = '10.0.0.6'; s.spec.clusterIPs = ['10.0.0.6']; });
    assert.deepEqual(serviceStrategy.validateUpdate(ctx, next, old).map(formatFieldError),
      ['spec.clusterIPs[0]: Invalid value: ["10.0.0.6"]: may not change once set']);
  });
});

describe('service update drops what the new type no longer uses (dropTypeDependentFields)', () => {
  const lbLocal = (s: Service): void => { s.spec.type = 'LoadBalancer'; s.spec.externalTrafficPolicy = 'Local'; s.spec.healthCheckNodePort = 31000; };
  const cases: { name: string; old: (s: Service) => void; next: (s: Service) => void; check: (s: Service) => void }[] = [
    { name: 'Local to Cluster drops an untouched healthCheckNodePort', old: lbLocal,
      next: (s) => { lbLocal(s); s.spec.externalTrafficPolicy = 'Cluster'; }, check: (s) => assert.equal(s.spec.healthCheckNodePort, undefined) },
    { name: 'Local to Cluster keeps a changed healthCheckNodePort', old: lbLocal,
      next: (s) => { lbLocal(s); s.spec.externalTrafficPolicy = 'Cluster'; s.spec.healthCheckNodePort = 31001; }, check: (s) => assert.equal(s.spec.healthCheckNodePort, 31001) },
    { name: 'to ExternalName keeps a changed clusterIP and internalTrafficPolicy', old: (s) => { s.spec.clusterIP = '10.0.0.5'; s.spec.clusterIPs = ['10.0.0.5']; },
      next: (s) => { s.spec.type = 'ExternalName'; s.spec.externalName = 'example.com'; s.spec.clusterIP = '10.0.0.6'; s.spec.clusterIPs = ['10.0.0.5']; s.spec.internalTrafficPolicy = 'Cluster'; },
      check: (s) => { assert.equal(s.spec.clusterIP, '10.0.0.6'); assert.deepEqual(s.spec.clusterIPs, ['10.0.0.5']); assert.equal(s.spec.internalTrafficPolicy, 'Cluster'); } },
    { name: 'NodePort to ClusterIP keeps node ports when one is new', old: (s) => { s.spec.type = 'NodePort'; s.spec.ports = [{ port: 80, nodePort: 30001 }]; },
      next: (s) => { s.spec.ports = [{ port: 80, nodePort: 30002 }]; }, check: (s) => assert.equal(s.spec.ports?.[0]?.nodePort, 30002) },
    { name: 'a non-LoadBalancer loses its load balancer status', old: (s) => { s.spec.type = 'LoadBalancer'; s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }] } }; },
      next: () => {}, check: (s) => assert.deepEqual(s.status, { loadBalancer: {} }) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const next = svc(c.next);
      serviceStrategy.prepareForUpdate(ctx, next, svc(c.old));
      c.check(next);
    });
  }
});

describe('service allocation hooks', () => {
  let backend: Backend;
  let ips: IPAllocator;
  let ports: PortAllocator;
  let def: ReturnType<typeof newServiceDefinition>;
  before(async () => {
    backend = await openSqliteBackend({ path: ':memory:' });
    const storage = newStore(backend, jsonCodec);
    ips = newIPAllocator(storage, '10.0.0.0/24', { random: () => 0 });
    ports = newPortAllocator(storage, '30000-32767', { random: () => 0 });
    def = newServiceDefinition({ serviceIPs: ips, nodePorts: ports });
  });
  after(async () => { await backend.close(); });

  it('allocates a cluster IP and fills families', async () => {
    const s = svc();
    const finish = await def.hooks.beginCreate?.(ctx, s, false);
    await finish?.(true);
    assert.match(s.spec.clusterIP ?? '', /^10\.0\.0\.\d+$/);
    assert.notEqual(s.spec.clusterIP, '10.0.0.1');
    assert.deepEqual(s.spec.clusterIPs, [s.spec.clusterIP]);
    assert.deepEqual(s.spec.ipFamilies, ['IPv4']);
    assert.equal(s.spec.ipFamilyPolicy, 'SingleStack');
    assert.equal(await ips.has(s.spec.clusterIP ?? ''), true);
    assert.deepEqual(serviceStrategy.validate(ctx, s), []);
  });

  it('rejects an explicit IP already allocated, as kube words it', async () => {
    const a = svc((s) => { s.spec.clusterIP = '10.0.0.5'; });
    await (await def.hooks.beginCreate?.(ctx, a, false))?.(true);
    const b = svc((s) => { s.metadata.name = 'other'; s.spec.clusterIP = '10.0.0.5'; });
    await assert.rejects(def.hooks.beginCreate?.(ctx, b, false) ?? Promise.resolve(), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.status.code, 422);
      assert.equal(err.message, 'Service "other" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated');
      return true;
    });
  });

  it('releases on a failed write and on delete', async () => {
    const s = svc((s) => { s.spec.clusterIP = '10.0.0.9'; });
    const finish = await def.hooks.beginCreate?.(ctx, s, false);
    await finish?.(false);
    assert.equal(await ips.has('10.0.0.9'), false);
    const t = svc((s) => { s.spec.clusterIP = '10.0.0.9'; s.spec.type = 'NodePort'; });
    defaultService(t);
    await (await def.hooks.beginCreate?.(ctx, t, false))?.(true);
    const port = t.spec.ports?.[0]?.nodePort ?? 0;
    assert.ok(port >= 30000 && port <= 32767);
    assert.equal(await ports.has(port), true);
    await def.hooks.afterDelete?.(ctx, t);
    assert.equal(await ips.has('10.0.0.9'), false);
    assert.equal(await ports.has(port), false);
  });

  it('headless and ExternalName services get no IP', async () => {
    const h = svc((s) => { s.spec.clusterIP = 'None'; });
    await (await def.hooks.beginCreate?.(ctx, h, false))?.(true);
    assert.deepEqual(h.spec.clusterIPs, ['None']);
    const e = svc((s) => { s.spec.type = 'ExternalName'; s.spec.externalName = 'example.com'; });
    await (await def.hooks.beginCreate?.(ctx, e, false))?.(true);
    assert.equal(e.spec.clusterIP, undefined);
    assert.deepEqual(serviceStrategy.validate(ctx, e), []);
  });

  it('an explicit node port in use is a 422 on its field', async () => {
    const a = svc((s) => { s.spec.type = 'NodePort'; s.spec.ports = [{ port: 80, nodePort: 31000 }]; });
    await (await def.hooks.beginCreate?.(ctx, a, false))?.(true);
    const b = svc((s) => { s.metadata.name = 'b'; s.spec.type = 'NodePort'; s.spec.ports = [{ port: 80, nodePort: 31000 }]; });
    await assert.rejects(def.hooks.beginCreate?.(ctx, b, false) ?? Promise.resolve(), {
      message: 'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is already allocated',
    });
    // the IP reserved before the port failed was given back
    assert.equal(await ips.has(b.spec.clusterIP ?? ''), b.spec.clusterIP === a.spec.clusterIP);
  });

  // kube's dry-run PortAllocationOperation checks no range and refuses a port taken by the same operation
  const dryRunCases: { name: string; ports: NonNullable<Service['spec']['ports']>; want?: string }[] = [
    { name: 'a node port twice in one service', ports: [{ name: 'a', port: 80, nodePort: 31500 }, { name: 'b', port: 81, nodePort: 31500 }],
      want: 'Service "dry" is invalid: spec.ports[1].nodePort: Invalid value: 31500: provided port is already allocated' },
    { name: 'a node port outside the range', ports: [{ port: 80, nodePort: 70000 }] },
  ];
  for (const c of dryRunCases) {
    it(`dry run: ${c.name}`, async () => {
      const s = svc((x) => { x.metadata.name = 'dry'; x.spec.type = 'NodePort'; x.spec.ports = c.ports; });
      const begin = def.hooks.beginCreate?.(ctx, s, true) ?? Promise.resolve();
      if (c.want === undefined) await begin; else await assert.rejects(begin, { message: c.want });
      assert.equal(await ports.has(31500), false);
    });
  }

  it('an update changing only clusterIP carries it into clusterIPs[0] and is refused as a change of the primary IP (kube)', async () => {
    const old = svc((s) => { s.metadata.name = 'headless'; s.spec.clusterIP = 'None'; });
    await (await def.hooks.beginCreate?.(ctx, old, false))?.(true);
    // kubectl apply of the same manifest with clusterIP: 10.0.0.12 (its patch keeps clusterIPs)
    const next = structuredClone(old);
    next.spec.clusterIP = '10.0.0.12';
    serviceStrategy.prepareForUpdate(ctx, next, old);
    const finish = await def.hooks.beginUpdate?.(ctx, next, old, false);
    assert.deepEqual(next.spec.clusterIPs, ['10.0.0.12']);
    assert.deepEqual(serviceStrategy.validateUpdate(ctx, next, old).map(formatFieldError),
      ['spec.clusterIPs[0]: Invalid value: ["10.0.0.12"]: may not change once set']);
    await finish?.(false);
    // nothing was allocated for the refused address
    assert.equal(await ips.has('10.0.0.12'), false);
  });

  it('update keeps allocated values and releases node ports when the type changes', async () => {
    const old = svc((s) => { s.metadata.name = 'np'; s.spec.type = 'NodePort'; });
    await (await def.hooks.beginCreate?.(ctx, old, false))?.(true);
    const port = old.spec.ports?.[0]?.nodePort ?? 0;
    // a client that omits clusterIP and nodePort (kubectl apply of the original manifest)
    const next = svc((s) => { s.metadata.name = 'np'; s.spec.type = 'NodePort'; });
    serviceStrategy.prepareForUpdate(ctx, next, old);
    await (await def.hooks.beginUpdate?.(ctx, next, old, false))?.(true);
    assert.equal(next.spec.clusterIP, old.spec.clusterIP);
    assert.equal(next.spec.ports?.[0]?.nodePort, port);
    assert.deepEqual(serviceStrategy.validateUpdate(ctx, next, old), []);
    const toClusterIP = structuredClone(next);
    toClusterIP.spec.type = 'ClusterIP';
    delete toClusterIP.spec.externalTrafficPolicy;
    serviceStrategy.prepareForUpdate(ctx, toClusterIP, next);
    await (await def.hooks.beginUpdate?.(ctx, toClusterIP, next, false))?.(true);
    assert.equal(toClusterIP.spec.ports?.[0]?.nodePort, undefined);
    assert.equal(await ports.has(port), false);
    assert.equal(await ips.has(next.spec.clusterIP ?? ''), true);
  });
});

describe('service table', () => {
  it('ports and external IPs', () => {
    const s = svc((s) => { s.spec.type = 'LoadBalancer'; s.spec.ports = [{ port: 80, nodePort: 30080 }]; });
    assert.equal(servicePorts(s), '80:30080/TCP');
    assert.equal(serviceExternalIP(s), '<pending>');
    s.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
    assert.equal(serviceExternalIP(s), '1.2.3.4');
  });
});
