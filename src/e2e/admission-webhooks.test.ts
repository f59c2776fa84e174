// Admission webhooks end to end, with kubectl: real HTTPS webhook servers of the test's own (own
// CA; a loopback url, and one reached through a Service whose EndpointSlice points at 127.0.0.1)
// deny with their message, mutate by JSON patch, fail open or closed when down or slow, are
// skipped by selectors and match conditions, see dry runs, are reinvoked, warn, and are called
// for custom resources and subresources.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { at } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { patchResponse, startScriptedWebhook, type ScriptedWebhook } from './testing/admission-webhook-server.ts';

type Json = Record<string, unknown>;

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const SVC_NS = 'webhook-svc';

describe('admission webhooks', () => {
  let s: Suite;
  let hook: ScriptedWebhook;
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const apply = (obj: Json): Promise<string> => ok(['apply', '-f', '-'], JSON.stringify(obj));
  /** A namespace labelled for one test: each webhook selects its own test's namespace. */
  const namespace = (name: string): Promise<string> => apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'webhook-test': name } } });
  const hookFor = (name: string, ns: string, path: string, more: Json = {}): Json => ({
    name, clientConfig: hook.clientConfig(path), sideEffects: 'None', admissionReviewVersions: ['v1'],
    namespaceSelector: { matchLabels: { 'webhook-test': ns } },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    ...more,
  });
  const configuration = async (kind: 'Validating' | 'Mutating', name: string, webhooks: readonly Json[]): Promise<void> => {
    await apply({ apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
  };
  /** Waits until a probe configmap in `ns` reaches the webhook at `path`: the configuration is in effect. */
  const inEffect = (ns: string, path: string): Promise<true> => eventually(`${path} in effect`, async () => {
    const before = hook.reviews(path).length;
    await s.kubectl(['create', 'configmap', 'probe', '-n', ns, '--dry-run=server', '--from-literal=probe=1']);
    return hook.reviews(path).length > before ? true : undefined;
  });

  before(async () => {
    hook = await startScriptedWebhook([`hook.${SVC_NS}.svc`]);
    s = await startSuite();
  });
  after(async () => {
    await s?.close();
    await hook?.close();
  });

  it('denies with the webhook\'s message and status, and sends kube\'s AdmissionReview', async () => {
    const ns = 'wh-deny';
    await namespace(ns);
    hook.on('/deny', (req) => (at(req, 'name') === 'probe' ? { allowed: true }
      : { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'configmaps named bad are not allowed' } }));
    await configuration('Validating', 'deny', [hookFor('deny.webhook.test', ns, '/deny')]);
    await inEffect(ns, '/deny');
    const r = await s.kubectl(['create', 'configmap', 'bad', '-n', ns, '--from-literal=k=v']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to create configmap: admission webhook "deny.webhook.test" denied the request: configmaps named bad are not allowed\n');
    const get = await s.kubectl(['get', 'configmap', 'bad', '-n', ns]);
    assert.match(get.stderr, /NotFound/);
    const req = hook.reviews('/deny').at(-1) ?? {};
    assert.deepEqual(req['kind'], { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(req['resource'], { group: '', version: 'v1', resource: 'configmaps' });
    assert.deepEqual(req['requestKind'], { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(req['operation'], 'CREATE');
    assert.equal(req['name'], 'bad');
    assert.equal(req['namespace'], ns);
    assert.equal(req['dryRun'], false);
    assert.equal(req['oldObject'], null);
    assert.deepEqual(at(req, 'object', 'data'), { k: 'v' });
    assert.equal(at(req, 'options', 'kind'), 'CreateOptions');
    assert.equal(at(req, 'options', 'apiVersion'), 'meta.k8s.io/v1');
    assert.equal(at(req, 'options', 'fieldManager'), 'kubectl-create');
    assert.equal(typeof at(req, 'userInfo', 'username'), 'string');
    assert.equal(typeof req['uid'], 'string');
  });

  it('mutates by JSON patch: the patched object is stored', async () => {
    const ns = 'wh-mutate';
    await namespace(ns);
    hook.on('/mutate', () => patchResponse([{ op: 'add', path: '/data/added', value: 'by-webhook' }]));
    await configuration('Mutating', 'mutate', [hookFor('mutate.webhook.test', ns, '/mutate')]);
    await inEffect(ns, '/mutate');
    await ok(['create', 'configmap', 'cm', '-n', ns, '--from-literal=k=v']);
    const cm = JSON.parse(await ok(['get', 'configmap', 'cm', '-n', ns, '-o', 'json'])) as Json;
    assert.deepEqual(cm['data'], { added: 'by-webhook', k: 'v' });
  });

  it('failurePolicy: Fail refuses with kube\'s text when the webhook is down or too slow, Ignore lets the request through', async () => {
    const ns = 'wh-failure';
    await namespace(ns);
    const port = await closedPort();
    hook.on('/slow', (req) => (at(req, 'name') === 'probe' ? { allowed: true } : 'hang'));
    const down = (name: string, policy: string, objectName: string): Json => ({
      ...hookFor(name, ns, '/down', { failurePolicy: policy }),
      clientConfig: { url: `https://127.0.0.1:${String(port)}/down`, caBundle: hook.pki.caBundle },
      objectSelector: { matchLabels: { case: objectName } },
    });
    const slow = (name: string, policy: string, objectName: string): Json => ({
      ...hookFor(name, ns, '/slow', { failurePolicy: policy, timeoutSeconds: 1 }), objectSelector: { matchLabels: { case: objectName } },
    });
    await configuration('Validating', 'failure', [
      down('down-fail.webhook.test', 'Fail', 'down-fail'), down('down-ignore.webhook.test', 'Ignore', 'down-ignore'),
      slow('slow-fail.webhook.test', 'Fail', 'slow-fail'), slow('slow-ignore.webhook.test', 'Ignore', 'slow-ignore'),
    ]);
    const create = (name: string): Promise<{ code: number; stderr: string }> => s.kubectl(['apply', '-n', ns, '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: name } } }));
    const downFail = await eventually('down-fail configuration in effect', async () => {
      const r = await create('down-fail');
      return r.code === 0 ? undefined : r;
    });
    assert.equal(downFail.stderr, `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "down-fail.webhook.test": ` +
      `failed to call webhook: Post "https://127.0.0.1:${String(port)}/down?timeout=10s": dial tcp 127.0.0.1:${String(port)}: connect: connection refused\n`);
    assert.equal((await create('down-ignore')).code, 0);
    const slowFail = await create('slow-fail');
    assert.equal(slowFail.code, 1);
    assert.equal(slowFail.stderr, `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "slow-fail.webhook.test": ` +
      `failed to call webhook: Post "${hook.server.url}/slow?timeout=1s": context deadline exceeded\n`);
    assert.equal((await create('slow-ignore')).code, 0);
    assert.match(await ok(['get', 'configmaps', '-n', ns, '-o', 'name']), /^configmap\/down-ignore\n.*configmap\/slow-ignore\n$/s);
  });

  it('namespace and object selectors and match conditions exclude requests', async () => {
    const ns = 'wh-select';
    const other = 'wh-select-other';
    await namespace(ns);
    await namespace(other);
    hook.on('/select', (req) => (at(req, 'name') === 'probe' ? { allowed: true } : { allowed: false, status: { message: 'selected' } }));
    await configuration('Validating', 'select', [hookFor('select.webhook.test', ns, '/select', {
      objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
      matchConditions: [{ name: 'not-excluded', expression: '!has(object.data) || !("excluded" in object.data)' }],
    })]);
    await inEffect(ns, '/select');
    const denied = await s.kubectl(['create', 'configmap', 'a', '-n', ns]);
    assert.equal(denied.stderr, 'error: failed to create configmap: admission webhook "select.webhook.test" denied the request: selected\n');
    // Another namespace (namespaceSelector), a labelled object (objectSelector), a condition that is false.
    await ok(['create', 'configmap', 'a', '-n', other]);
    await ok(['apply', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', labels: { skip: 'yes' } } }));
    await ok(['create', 'configmap', 'c', '-n', ns, '--from-literal=excluded=1']);
    assert.deepEqual(hook.reviews('/select').map((r) => r['name']).filter((n) => n !== 'probe'), ['a']);
  });

  it('dry run: a webhook without side effects sees dryRun, and nothing is stored', async () => {
    const ns = 'wh-dryrun';
    await namespace(ns);
    hook.on('/dry', () => patchResponse([{ op: 'add', path: '/data/dry', value: 'yes' }]));
    await configuration('Mutating', 'dry', [hookFor('dry.webhook.test', ns, '/dry', { sideEffects: 'NoneOnDryRun' })]);
    await inEffect(ns, '/dry');
    const out = await ok(['create', 'configmap', 'x', '-n', ns, '--dry-run=server', '-o', 'json', '--from-literal=k=v']);
    assert.deepEqual((JSON.parse(out) as Json)['data'], { dry: 'yes', k: 'v' });
    assert.equal(hook.reviews('/dry').at(-1)?.['dryRun'], true);
    assert.deepEqual(at(hook.reviews('/dry').at(-1), 'options', 'dryRun'), ['All']);
    assert.match((await s.kubectl(['get', 'configmap', 'x', '-n', ns])).stderr, /NotFound/);
    // v1 refuses webhooks that may have side effects, so a dry run never reaches one.
    const refused = await s.kubectl(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'side-effects' },
      webhooks: [hookFor('some.webhook.test', ns, '/dry', { sideEffects: 'Some' })],
    }));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /webhooks\[0\]\.sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"/);
  });

  it('reinvocation: an IfNeeded webhook is called again after a later webhook changed the object', async () => {
    const ns = 'wh-reinvoke';
    await namespace(ns);
    hook.on('/first', (req) => (at(req, 'object', 'data', 'first') === undefined
      ? patchResponse([{ op: 'add', path: '/data/first', value: String(Object.keys(at(req, 'object', 'data') as Json ?? {}).length) }])
      : { allowed: true }));
    hook.on('/second', (req) => (at(req, 'object', 'data', 'second') === undefined
      ? patchResponse([{ op: 'add', path: '/data/second', value: 'x' }]) : { allowed: true }));
    await configuration('Mutating', 'a-first', [hookFor('first.webhook.test', ns, '/first', { reinvocationPolicy: 'IfNeeded' })]);
    await configuration('Mutating', 'b-second', [hookFor('second.webhook.test', ns, '/second')]);
    await inEffect(ns, '/second');
    await ok(['apply', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'r' }, data: { k: 'v' } }));
    const firstSaw = hook.reviews('/first').filter((r) => r['name'] === 'r').map((r) => Object.keys(at(r, 'object', 'data') as Json).sort());
    assert.deepEqual(firstSaw, [['k'], ['first', 'k', 'second']]);
    assert.equal(hook.reviews('/second').filter((r) => r['name'] === 'r').length, 1);
  });

  it('warnings from webhooks are shown by kubectl', async () => {
    const ns = 'wh-warn';
    await namespace(ns);
    hook.on('/warn', () => ({ allowed: true, warnings: ['configmaps are watched by a webhook'] }));
    await configuration('Validating', 'warn', [hookFor('warn.webhook.test', ns, '/warn')]);
    await inEffect(ns, '/warn');
    const r = await s.kubectl(['create', 'configmap', 'w', '-n', ns]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Warning: configmaps are watched by a webhook\n');
  });

  it('a webhook on a subresource (deployments/scale) and on a custom resource', async () => {
    const ns = 'wh-sub';
    await namespace(ns);
    hook.on('/scale', (req) => ({ allowed: false, status: { message: `no scaling to ${String(at(req, 'object', 'spec', 'replicas'))}` } }));
    hook.on('/widgets', (req) => patchResponse([{ op: 'add', path: '/spec/size', value: 3 }], {
      warnings: [`widget ${String(at(req, 'name'))} sized`],
    }));
    await apply({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    });
    await eventually('widgets served', async () => ((await s.kubectl(['get', 'widgets', '-n', ns])).code === 0 ? true : undefined));
    await configuration('Validating', 'scale', [hookFor('scale.webhook.test', ns, '/scale', {
      rules: [{ operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }],
    })]);
    await configuration('Mutating', 'widgets', [hookFor('widgets.webhook.test', ns, '/widgets', {
      rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['*'], resources: ['widgets'], scope: 'Namespaced' }],
    })]);
    await ok(['create', 'deployment', 'web', '--image=nginx', '-n', ns]);
    const scaled = await eventually('the scale webhook in effect', async () => {
      const r = await s.kubectl(['scale', 'deployment', 'web', '--replicas=5', '-n', ns]);
      return r.code === 0 ? undefined : r;
    });
    assert.equal(scaled.stderr, 'Error from server: admission webhook "scale.webhook.test" denied the request: no scaling to 5\n');
    const scaleReq = hook.reviews('/scale').at(-1) ?? {};
    assert.deepEqual(scaleReq['kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.equal(scaleReq['subResource'], 'scale');
    assert.equal(scaleReq['requestSubResource'], 'scale');
    assert.equal(at(scaleReq, 'oldObject', 'spec', 'replicas'), 1);

    const created = await eventually('the widgets webhook in effect', async () => {
      await s.kubectl(['delete', 'widget', 'w1', '-n', ns, '--ignore-not-found']);
      const r = await s.kubectl(['apply', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: {} }));
      return r.stderr.includes('sized') ? r : undefined;
    });
    assert.equal(created.stderr, 'Warning: widget w1 sized\n');
    const w = JSON.parse(await ok(['get', 'widget', 'w1', '-n', ns, '-o', 'json'])) as Json;
    assert.deepEqual(w['spec'], { size: 3 });
    assert.deepEqual(hook.reviews('/widgets').at(-1)?.['kind'], { group: 'example.com', version: 'v1', kind: 'Widget' });
  });

  // kube refuses loopback IPs in IPv4 slices (ValidateEndpointIP); an FQDN slice may name 127.0.0.1.
  it('a webhook reached through a Service whose EndpointSlice points at 127.0.0.1', async () => {
    await namespace(SVC_NS);
    await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hook', namespace: SVC_NS },
      spec: { ports: [{ port: 443, targetPort: hook.server.port }] } });
    await apply({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'hook-1', namespace: SVC_NS,
      labels: { 'kubernetes.io/service-name': 'hook' } }, addressType: 'FQDN',
    ports: [{ port: hook.server.port }], endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }] });
    hook.on('/svc', (req) => (at(req, 'name') === 'probe' ? { allowed: true } : { allowed: false, status: { message: 'denied through the service' } }));
    await configuration('Validating', 'svc', [{
      ...hookFor('svc.webhook.test', SVC_NS, '/svc'),
      clientConfig: { service: { namespace: SVC_NS, name: 'hook', path: '/svc', port: 443 }, caBundle: hook.pki.caBundle },
    }]);
    await inEffect(SVC_NS, '/svc');
    const r = await s.kubectl(['create', 'configmap', 'x', '-n', SVC_NS]);
    assert.equal(r.stderr, 'error: failed to create configmap: admission webhook "svc.webhook.test" denied the request: denied through the service\n');
  });

  it('delete, deletecollection and connect (pods/exec) pass through admission with kube\'s attributes', async () => {
    const ns = 'wh-delete';
    await namespace(ns);
    hook.on('/delete', (req) => (at(req, 'oldObject', 'metadata', 'labels', 'keep') === 'yes'
      ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'kept' } } : { allowed: true }));
    hook.on('/exec', (req) => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: `no exec of ${String(at(req, 'object', 'command'))}` } }));
    await configuration('Validating', 'delete', [
      hookFor('delete.webhook.test', ns, '/delete', { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }),
      hookFor('exec.webhook.test', ns, '/exec', { rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'] }] }),
    ]);
    await ok(['apply', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept', labels: { keep: 'yes' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bulk', labels: { bulk: 'yes' } } },
    ] }));
    const refused = await eventually('the delete webhook in effect', async () => {
      const r = await s.kubectl(['delete', 'configmap', 'kept', '-n', ns]);
      return r.code === 0 ? undefined : r;
    });
    assert.equal(refused.stderr, 'Error from server (Forbidden): admission webhook "delete.webhook.test" denied the request: kept\n');
    await ok(['delete', 'configmap', 'gone', '-n', ns]);
    const del = hook.reviews('/delete').find((r) => r['name'] === 'gone') ?? {};
    assert.equal(del['operation'], 'DELETE');
    assert.equal(del['object'], null);
    assert.equal(at(del, 'oldObject', 'metadata', 'name'), 'gone');
    assert.equal(at(del, 'options', 'kind'), 'DeleteOptions');
    assert.equal(at(del, 'options', 'apiVersion'), 'meta.k8s.io/v1');

    // deletecollection: each object is admitted under the request's name, which is empty.
    const bulk = await s.request({ method: 'DELETE', path: `/api/v1/namespaces/${ns}/configmaps?labelSelector=bulk%3Dyes` });
    assert.equal(bulk.status, 200, bulk.text);
    const coll = hook.reviews('/delete').filter((r) => at(r, 'oldObject', 'metadata', 'name') === 'bulk');
    assert.equal(coll.length, 1);
    assert.equal(coll[0]?.['name'], undefined);

    await ok(['apply', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } }));
    const exec = await s.kubectl(['exec', 'p', '-n', ns, '--', 'ls', '/']);
    assert.equal(exec.code, 1);
    assert.match(exec.stderr, /admission webhook "exec.webhook.test" denied the request: no exec of ls,\//);
    const req = hook.reviews('/exec').at(-1) ?? {};
    assert.equal(req['operation'], 'CONNECT');
    assert.deepEqual(req['kind'], { group: '', version: 'v1', kind: 'PodExecOptions' });
    assert.equal(req['subResource'], 'exec');
    assert.equal(req['name'], 'p');
    assert.equal(at(req, 'object', 'kind'), 'PodExecOptions');
    assert.deepEqual(at(req, 'object', 'command'), ['ls', '/']);
    assert.equal(req['options'], null);
  });

  it('webhook configurations are never sent to webhooks, so a broken webhook can be removed', async () => {
    const port = await closedPort();
    await configuration('Validating', 'lockout', [{
      name: 'lockout.webhook.test', sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
      clientConfig: { url: `https://127.0.0.1:${String(port)}/`, caBundle: hook.pki.caBundle },
      rules: [{ operations: ['*'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] }],
    }]);
    await configuration('Mutating', 'lockout-2', [hookFor('lockout2.webhook.test', 'wh-none', '/none')]);
    assert.equal(await ok(['delete', 'mutatingwebhookconfiguration', 'lockout-2']), 'mutatingwebhookconfiguration.admissionregistration.k8s.io "lockout-2" deleted\n');
    assert.equal(await ok(['delete', 'validatingwebhookconfiguration', 'lockout']), 'validatingwebhookconfiguration.admissionregistration.k8s.io "lockout" deleted\n');
  });
});
