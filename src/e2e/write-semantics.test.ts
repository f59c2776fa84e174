// Write semantics real clients trip on (issue 11, items 3-7), driven with kubectl: an update with
// resourceVersion "0", type errors in patched objects, writes in a missing or terminating
// namespace, a Service update changing only clusterIP, and the managedFields of label, taint and
// status writes. The expectations are kube-apiserver v1.36.3's answers: the same cases run
// against the reference server too when it is built on this machine (testing/oracle.ts), so
// they are checked against kube itself, not only written down from it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asStatus, type RawRequest, type RawResponse } from './testing/https-client.ts';
import { kubectl, type KubectlResult } from './testing/kubectl.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

interface Target {
  kubectl(args: readonly string[], input?: string): Promise<KubectlResult>;
  request(req: RawRequest): Promise<RawResponse>;
}

interface Meta {
  name: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  managedFields?: { manager: string; operation: string; subresource?: string; fieldsV1?: Record<string, unknown> }[];
}
interface Obj { metadata: Meta; data?: Record<string, string>; spec?: Record<string, unknown>; status?: Record<string, unknown> }

const NS = 'ws-e2e';
const TERMINATING = 'ws-e2e-terminating';

async function ok(t: Target, args: readonly string[], input?: string): Promise<string> {
  const r = await t.kubectl(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
async function getJSON(t: Target, args: readonly string[]): Promise<Obj> {
  return JSON.parse(await ok(t, ['get', ...args, '-o', 'json', '--show-managed-fields'])) as Obj;
}
const entry = (o: Obj, manager: string) => o.metadata.managedFields?.find((m) => m.manager === manager);

function defineCases(label: string, target: () => Target): void {
  describe(`${label}: an update with resourceVersion "0"`, () => {
    const cases = [
      { name: 'a ConfigMap is replaced unconditionally', kind: 'configmap', create: ['create', 'cm', 'rv0', '-n', NS, '--from-literal=a=1'],
        edit: (o: Obj) => { o.data = { a: '2' }; }, check: (o: Obj) => assert.deepEqual(o.data, { a: '2' }) },
      { name: 'a Node is replaced unconditionally', kind: 'node', create: ['create', '-f', '-'],
        input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'ws-rv0', labels: { a: '1' } } }),
        edit: (o: Obj) => { o.metadata.labels = { a: '2' }; }, check: (o: Obj) => assert.deepEqual(o.metadata.labels, { a: '2' }) },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const t = target();
        await ok(t, c.create, c.input);
        const name = c.kind === 'node' ? 'ws-rv0' : 'rv0';
        const nsArgs = c.kind === 'node' ? [] : ['-n', NS];
        const o = await getJSON(t, [c.kind, name, ...nsArgs]);
        o.metadata.resourceVersion = '0';
        c.edit(o);
        assert.equal(await ok(t, ['replace', '-f', '-'], JSON.stringify(o)), `${c.kind}/${name} replaced\n`);
        c.check(await getJSON(t, [c.kind, name, ...nsArgs]));
      });
    }

    it('a Lease (no unconditional updates) is refused with 422 naming the resource, and keeps its holder', async () => {
      const t = target();
      await ok(t, ['create', '-f', '-', '-n', NS], JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lrv' }, spec: { holderIdentity: 'a' } }));
      const o = await getJSON(t, ['lease', 'lrv', '-n', NS]);
      o.metadata.resourceVersion = '0';
      o.spec = { holderIdentity: 'b' };
      const r = await t.kubectl(['replace', '-f', '-'], JSON.stringify(o));
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'The leases "lrv" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update\n');
      assert.equal((await getJSON(t, ['lease', 'lrv', '-n', NS])).spec?.['holderIdentity'], 'a');
    });

    it('a resourceVersion that is no number is a 500 with strconv\'s text', async () => {
      const r = await target().request({ method: 'PUT', path: `/api/v1/namespaces/${NS}/configmaps/rv0`,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rv0', resourceVersion: 'abc' }, data: { a: '3' } }) });
      assert.equal(r.status, 500);
      assert.deepEqual(asStatus(r.json()), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, message: 'strconv.ParseUint: parsing "abc": invalid syntax' });
    });
  });

  describe(`${label}: a patched object of the wrong type`, () => {
    const labelsNotAMap = 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string';
    const cases = [
      { name: 'strategic merge patch', type: 'strategic', patch: '{"metadata":{"labels":"invalid"}}', value: /^map\[metadata:map\[labels:invalid\]\]$/,
        detail: 'cannot restore map from string' },
      { name: 'merge patch', type: 'merge', patch: '{"metadata":{"labels":"invalid"}}', value: /^\{"apiVersion":"v1",.*"labels":"invalid".*\}$/, detail: labelsNotAMap },
      { name: 'JSON patch', type: 'json', patch: '[{"op":"replace","path":"/metadata/labels","value":"invalid"}]', value: /^\{"apiVersion":"v1",.*"labels":"invalid".*\}$/,
        detail: labelsNotAMap },
    ];
    for (const c of cases) {
      it(`${c.name}: kubectl patch is refused with 422 Invalid on "patch", and nothing changes`, async () => {
        const t = target();
        const name = `typed-${c.type}`;
        await ok(t, ['create', 'cm', name, '-n', NS, '--from-literal=a=1']);
        await ok(t, ['label', 'cm', name, '-n', NS, 'keep=yes']);
        const r = await t.kubectl(['patch', 'cm', name, '-n', NS, '--type', c.type, '-p', c.patch]);
        assert.equal(r.code, 1);
        assert.ok(r.stderr.startsWith('The request is invalid: patch: Invalid value: "') && r.stderr.endsWith(`": ${c.detail}\n`), r.stderr);
        // The Status itself: 422, no kind or name, one cause on "patch".
        const raw = await t.request({ method: 'PATCH', path: `/api/v1/namespaces/${NS}/configmaps/${name}`, body: c.patch,
          contentType: `application/${{ strategic: 'strategic-merge-patch', merge: 'merge-patch', json: 'json-patch' }[c.type] ?? ''}+json` });
        const st = raw.json() as { code: number; reason: string; message: string; details: { causes: { reason: string; field: string; message: string }[] } };
        assert.equal(st.code, 422);
        assert.equal(st.reason, 'Invalid');
        assert.equal(st.details.causes.length, 1);
        const [cause] = st.details.causes;
        assert.equal(cause?.field, 'patch');
        assert.equal(cause?.reason, 'FieldValueInvalid');
        const m = /^Invalid value: ("(?:[^"\\]|\\.)*"): (.*)$/s.exec(cause?.message ?? '');
        assert.ok(m !== null, cause?.message);
        assert.match(JSON.parse(m[1] ?? '""') as string, c.value);
        assert.equal(m[2], c.detail);
        assert.equal(st.message, ` "" is invalid: patch: ${cause?.message ?? ''}`);
        assert.deepEqual((await getJSON(t, ['cm', name, '-n', NS])).metadata.labels, { keep: 'yes' });
      });
    }
  });

  describe(`${label}: a server-side apply of the wrong type`, () => {
    const yaml = (name: string, rest: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${NS}\n${rest}`;
    const cases = [
      { name: 'a list where a string is fails the typed validation', cm: 'ssa-list', rest: 'data:\n  a: [1]\n',
        stderr: `Error from server: failed to create typed patch object (${NS}/ssa-list; /v1, Kind=ConfigMap): .data.a: expected string, got &value.valueUnstructured{Value:[]interface {}{1}}\n` },
      { name: 'a string where a boolean is fails the typed validation', cm: 'ssa-bool', rest: 'immutable: "yes"\n',
        stderr: `Error from server: failed to create typed patch object (${NS}/ssa-bool; /v1, Kind=ConfigMap): .immutable: expected boolean, got &{yes}\n` },
    ];
    for (const c of cases) {
      it(`${c.name}: 500, and nothing is stored`, async () => {
        const t = target();
        const r = await t.kubectl(['apply', '--server-side', '-f', '-'], yaml(c.cm, c.rest));
        assert.equal(r.code, 1);
        assert.equal(r.stderr, c.stderr);
        assert.equal((await t.kubectl(['get', 'cm', c.cm, '-n', NS])).code, 1);
      });
    }

    it('a value the typed validation lets through but the Go type refuses fails the conversion', async () => {
      const r = await target().request({ method: 'PATCH', path: `/api/v1/namespaces/${NS}/services/ssa-svc?fieldManager=ws`, contentType: 'application/apply-patch+yaml',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ssa-svc' }, spec: { ports: [{ port: 80, targetPort: [1] }] } }) });
      assert.equal(r.status, 500);
      assert.deepEqual(asStatus(r.json()), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
        message: 'failed to convert new object (/ssa-svc; /v1, Kind=Service) to proper version: unable to convert unstructured object to /v1, Kind=Service: json: cannot unmarshal array into Go value of type int32' });
    });
  });

  describe(`${label}: a namespace that does not exist, or is terminating`, () => {
    it('reads and writes of an object in a missing namespace name the object; creates name the namespace', async () => {
      const t = target();
      const base = '/api/v1/namespaces/ws-nope/configmaps';
      const cm = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
      const cases: { req: RawRequest; status: number; message?: string }[] = [
        { req: { method: 'GET', path: `${base}/x` }, status: 404, message: 'configmaps "x" not found' },
        { req: { method: 'GET', path: base }, status: 200 },
        { req: { method: 'PUT', path: `${base}/x`, body: cm }, status: 404, message: 'configmaps "x" not found' },
        { req: { method: 'PATCH', path: `${base}/x`, body: '{}', contentType: 'application/merge-patch+json' }, status: 404, message: 'configmaps "x" not found' },
        { req: { method: 'DELETE', path: `${base}/x` }, status: 404, message: 'configmaps "x" not found' },
        { req: { method: 'DELETE', path: base }, status: 200 },
        { req: { method: 'POST', path: base, body: cm }, status: 404, message: 'namespaces "ws-nope" not found' },
        { req: { method: 'PATCH', path: `${base}/x?fieldManager=m`, body: cm, contentType: 'application/apply-patch+yaml' }, status: 404, message: 'namespaces "ws-nope" not found' },
        { req: { method: 'POST', path: '/apis/authorization.k8s.io/v1/namespaces/ws-nope/localsubjectaccessreviews', body: JSON.stringify({
          apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'ws-nope' },
          spec: { user: 'u', resourceAttributes: { namespace: 'ws-nope', verb: 'get', resource: 'pods' } } }) }, status: 201 },
      ];
      for (const c of cases) {
        const r = await t.request(c.req);
        assert.equal(r.status, c.status, `${c.req.method} ${c.req.path}: ${r.text}`);
        if (c.message !== undefined) assert.equal(asStatus(r.json()).message, c.message, `${c.req.method} ${c.req.path}`);
      }
      const k = await t.kubectl(['create', 'cm', 'x', '-n', 'ws-nope']);
      assert.equal(k.stderr, 'error: failed to create configmap: namespaces "ws-nope" not found\n');
    });

    it('nothing new is created in a terminating namespace, events and tokens included; updates go on', async () => {
      const t = target();
      const forbidden = (what: string): string => `${what} is forbidden: unable to create new content in namespace ${TERMINATING} because it is being terminated`;
      const cases: { args: string[]; input?: string; stderr: string }[] = [
        { args: ['create', 'cm', 'new', '-n', TERMINATING], stderr: `error: failed to create configmap: ${forbidden('configmaps "new"')}\n` },
        { args: ['create', 'token', 'default', '-n', TERMINATING], stderr: `error: failed to create token: ${forbidden('serviceaccounts "default"')}\n` },
        { args: ['create', '-f', '-'], input: JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: TERMINATING },
          involvedObject: { name: 'x', namespace: TERMINATING }, reason: 'R', message: 'm', type: 'Normal' }),
        stderr: `Error from server (Forbidden): error when creating "STDIN": ${forbidden('events "e1"')}\n` },
      ];
      for (const c of cases) {
        const r = await t.kubectl(c.args, c.input);
        assert.equal(r.code, 1, c.args.join(' '));
        assert.equal(r.stderr, c.stderr);
      }
      assert.equal(await ok(t, ['label', 'cm', 'held', '-n', TERMINATING, 'still=writable']), 'configmap/held labeled\n');
    });
  });

  describe(`${label}: a Service update that changes only clusterIP`, () => {
    const manifest = (clusterIP: string, selector: boolean): string => JSON.stringify({
      apiVersion: 'v1', kind: 'Service', metadata: { name: selector ? 'ws-svc' : 'ws-svc-nosel', namespace: NS },
      spec: { clusterIP, ...(selector ? { selector: { app: 'a' } } : {}), ports: [{ port: 80 }] },
    });

    it('apply of clusterIP None, then of an address, is refused as a change of clusterIPs[0]', async () => {
      const t = target();
      assert.equal(await ok(t, ['apply', '-f', '-'], manifest('None', true)), 'service/ws-svc created\n');
      const r = await t.kubectl(['apply', '-f', '-'], manifest('10.0.0.12', true));
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'The Service "ws-svc" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.12"]: may not change once set\n');
      const s = await t.kubectl(['apply', '--server-side', '-f', '-'], manifest('10.0.0.12', true));
      assert.equal(s.stderr, 'The Service "ws-svc" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.12"]: may not change once set\n');
      const stored = await getJSON(t, ['svc', 'ws-svc', '-n', NS]);
      assert.deepEqual([stored.spec?.['clusterIP'], stored.spec?.['clusterIPs']], ['None', ['None']]);
    });

    it('a headless service without selector requires dual stack, with both families', async () => {
      const t = target();
      await ok(t, ['apply', '-f', '-'], manifest('None', false));
      const s = await getJSON(t, ['svc', 'ws-svc-nosel', '-n', NS]);
      assert.deepEqual([s.spec?.['ipFamilyPolicy'], s.spec?.['ipFamilies']], ['RequireDualStack', ['IPv4', 'IPv6']]);
    });
  });

  describe(`${label}: managedFields of every write`, () => {
    it('kubectl label and taint of a Node record kubectl-label and kubectl-taint', async () => {
      const t = target();
      await ok(t, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'ws-node', labels: { a: 'b' } } }));
      await ok(t, ['label', 'node', 'ws-node', 'x=y']);
      await ok(t, ['taint', 'node', 'ws-node', 'k=v:NoSchedule']);
      const n = await getJSON(t, ['node', 'ws-node']);
      assert.deepEqual(entry(n, 'kubectl-create')?.fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
      assert.deepEqual(entry(n, 'kubectl-label')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:x': {} } } });
      assert.deepEqual(entry(n, 'kubectl-taint')?.fieldsV1, { 'f:spec': { 'f:taints': {} } });
    });

    it('a ServiceAccount created without fields records nothing until a write sets some', async () => {
      const t = target();
      await ok(t, ['create', 'sa', 'ws-sa', '-n', NS]);
      await ok(t, ['label', 'sa', 'ws-sa', '-n', NS, 'x=y']);
      // kube tracks no object created without managed fields (an empty field set records no entry).
      assert.equal((await getJSON(t, ['sa', 'ws-sa', '-n', NS])).metadata.managedFields, undefined);
    });

    it('a Deployment status write neither changes labels nor records them', async () => {
      const t = target();
      await ok(t, ['create', 'deployment', 'ws-dep', '-n', NS, '--image=nginx']);
      const d = JSON.parse(await ok(t, ['patch', 'deployment', 'ws-dep', '-n', NS, '--subresource=status', '--type=merge', '--field-manager=ws-status', '-o', 'json', '--show-managed-fields',
        '-p', '{"metadata":{"labels":{"sp":"y"},"annotations":{"an":"z"}},"status":{"observedGeneration":7}}'])) as Obj;
      assert.deepEqual(d.metadata.labels, { app: 'ws-dep' });
      const e = entry(d, 'ws-status');
      assert.equal(e?.subresource, 'status');
      assert.deepEqual(e?.fieldsV1, { 'f:metadata': { 'f:annotations': { '.': {}, 'f:an': {} } }, 'f:status': { 'f:observedGeneration': {} } });
    });

    it('a custom resource\'s status write keeps metadata and spec, and records status only', async () => {
      const t = target();
      await ok(t, ['apply', '-f', '-'], JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.ws.example.com' },
        spec: { group: 'ws.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: {
            spec: { type: 'object', properties: { size: { type: 'integer' } } }, status: { type: 'object', properties: { phase: { type: 'string' } } } } } } }] },
      }));
      await eventually('the widgets resource served', async () => ((await t.kubectl(['get', 'widgets', '-n', NS])).code === 0 ? true : undefined));
      await ok(t, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'ws.example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: NS, labels: { a: 'b' } }, spec: { size: 1 } }));
      const w = JSON.parse(await ok(t, ['patch', 'widget', 'w1', '-n', NS, '--subresource=status', '--type=merge', '--field-manager=ws-status', '-o', 'json', '--show-managed-fields',
        '-p', '{"metadata":{"labels":{"sp":"y"},"finalizers":["a/b"]},"spec":{"size":3},"status":{"phase":"Up"}}'])) as Obj & { metadata: { finalizers?: string[] } };
      assert.deepEqual([w.metadata.labels, w.metadata.finalizers, w.spec], [{ a: 'b' }, undefined, { size: 1 }]);
      assert.deepEqual(entry(w, 'ws-status')?.fieldsV1, { 'f:status': { '.': {}, 'f:phase': {} } });
    });
  });
}

/** Namespaces and the objects the cases expect, made the same way on each server. */
async function setUp(t: Target): Promise<void> {
  await ok(t, ['create', 'namespace', NS]);
  await ok(t, ['create', 'namespace', TERMINATING]);
  for (const ns of [NS, TERMINATING]) {
    // The reference server runs no controllers: its namespaces have no default service account.
    // kapi's controller makes it soon after the namespace: whoever is first wins.
    if ((await t.kubectl(['get', 'sa', 'default', '-n', ns])).code !== 0) await t.kubectl(['create', 'sa', 'default', '-n', ns]);
    await eventually(`serviceaccount default in ${ns}`, async () => ((await t.kubectl(['get', 'sa', 'default', '-n', ns])).code === 0 ? true : undefined));
  }
  await ok(t, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: TERMINATING, finalizers: ['ws.example.com/hold'] } }));
  await ok(t, ['delete', 'namespace', TERMINATING, '--wait=false']);
  await eventually(`${TERMINATING} Terminating`, async () =>
    ((await t.kubectl(['get', 'namespace', TERMINATING, '-o', 'jsonpath={.status.phase}'])).stdout === 'Terminating' ? true : undefined));
}

let suite: Suite | undefined;
const kapi: Target = {
  kubectl: (args, input) => (suite ?? assert.fail('no server')).kubectl(args, input),
  request: (req) => (suite ?? assert.fail('no server')).request(req),
};

describe('kapi', () => {
  before(async () => {
    suite = await startSuite();
    await setUp(kapi);
  });
  after(async () => { await suite?.close(); });
  defineCases('kapi', () => kapi);
});

const oracleSkip = oracleUnavailable();
describe('the reference kube-apiserver (the expectations, checked)', { skip: oracleSkip ?? false }, () => {
  let oracle: Oracle | undefined;
  let home = '';
  let target: Target | undefined;
  before(async () => {
    oracle = await startOracle();
    home = await mkdtemp(join(tmpdir(), 'kapi-ws-oracle-'));
    const o = oracle;
    target = { kubectl: (args, input) => kubectl({ kubeconfigPath: o.kubeconfigPath, home }, args, input), request: (req) => o.request(req) };
    await setUp(target);
  });
  after(async () => {
    await oracle?.stop();
    if (home !== '') await rm(home, { recursive: true, force: true });
  });
  defineCases('oracle', () => target ?? assert.fail('no oracle'));
});
