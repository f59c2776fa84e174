// Helm 4 (client-go 1.35 inside) through a release's life on kapi: install, 12 upgrades (past the
// 10-revision history limit, so Helm prunes release Secrets with protobuf DeleteOptions), history,
// rollback, get values/manifest/hooks, `helm template | kubectl apply`, both --server-side modes,
// uninstall; then no release Secret (label owner=helm) and no release object is left. The suite's
// etcd pass (scripts/run-tests.mjs) runs it again on the etcd3 backend.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlLayer, runTool, type KubectlLayer, type ToolResult, type ToolTarget } from './testing/kubectl-layer.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'default';
const CHART_YAML = 'apiVersion: v2\nname: tiny\nversion: 0.1.0\n';
const VALUES_YAML = 'replicas: 1\ngreeting: hello\n';
// One of each kind a typical chart has; the hook is a ConfigMap (a hook Job would wait for a
// kube-controller-manager that runs no pods here) recreated before every install and upgrade.
const TEMPLATES = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ .Release.Name }}-sa
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-cm
data:
  greeting: {{ .Values.greeting | quote }}
---
apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-secret
stringData:
  token: {{ .Values.greeting | quote }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ .Release.Name }}-svc
spec:
  selector:
    app: {{ .Release.Name }}
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-deploy
spec:
  replicas: {{ .Values.replicas }}
  selector:
    matchLabels:
      app: {{ .Release.Name }}
  template:
    metadata:
      labels:
        app: {{ .Release.Name }}
    spec:
      serviceAccountName: {{ .Release.Name }}-sa
      containers:
      - name: app
        image: registry.example/app:1
`;
const HOOK = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-hook
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-delete-policy": before-hook-creation
data:
  revision: {{ .Release.Revision | quote }}
`;

/** The API paths of a release's objects (the hook aside). */
function releasePaths(release: string): string[] {
  return [
    `/api/v1/namespaces/${NS}/serviceaccounts/${release}-sa`,
    `/api/v1/namespaces/${NS}/configmaps/${release}-cm`,
    `/api/v1/namespaces/${NS}/secrets/${release}-secret`,
    `/api/v1/namespaces/${NS}/services/${release}-svc`,
    `/apis/apps/v1/namespaces/${NS}/deployments/${release}-deploy`,
  ];
}

interface Obj {
  metadata: { name: string; labels?: Record<string, string>; managedFields?: { manager: string; operation: string }[] };
  data?: Record<string, string>;
  spec?: { replicas?: number };
}
interface HistoryEntry { revision: number; status: string; description: string }

/** Upgrade i (1..12) sets these values; it makes revision i+1. */
const upgradeValues = (i: number): { greeting: string; replicas: number } => ({ greeting: `g${i}`, replicas: (i % 3) + 1 });
// The upgrades cycle through Helm 4's modes: server-side apply, client-side three-way merge
// patches, and "auto" (the previous release's mode).
const MODES = ['true', 'false', 'auto'] as const;

/** Writes the chart into `dir`/chart and returns its path. */
async function writeChart(dir: string): Promise<string> {
  const chart = join(dir, 'chart');
  await mkdir(join(chart, 'templates'), { recursive: true });
  await writeFile(join(chart, 'Chart.yaml'), CHART_YAML);
  await writeFile(join(chart, 'values.yaml'), VALUES_YAML);
  await writeFile(join(chart, 'templates', 'all.yaml'), TEMPLATES);
  await writeFile(join(chart, 'templates', 'hook.yaml'), HOOK);
  return chart;
}

describe('Helm 4 against kapi', () => {
  let s: Suite;
  let tools: KubectlLayer;
  let dir: string;
  let chart: string;
  let target: ToolTarget;

  before(async () => {
    tools = await kubectlLayer();
    s = await startSuite();
    dir = await mkdtemp(join(tmpdir(), 'kapi-e2e-helm-'));
    chart = await writeChart(dir);
    await mkdir(join(dir, 'home'));
    target = { kubeconfigPath: s.server.kubeconfigPath, home: join(dir, 'home') };
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  const helm = async (args: readonly string[]): Promise<ToolResult> => {
    const r = await runTool(target, tools.helm, [...args, '--namespace', NS]);
    assert.equal(r.code, 0, `helm ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
    return r;
  };
  const kubectl = async (args: readonly string[], input?: string): Promise<ToolResult> => {
    const r = await runTool(target, tools.kubectl, [...args, '--namespace', NS], input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stdout}${r.stderr}`);
    return r;
  };
  const get = async (path: string): Promise<Obj> => {
    const r = await s.request({ method: 'GET', path });
    assert.equal(r.status, 200, `GET ${path}: ${r.text}`);
    return r.json() as Obj;
  };
  const releaseSecrets = async (release?: string): Promise<string[]> => {
    const selector = encodeURIComponent(`owner=helm${release === undefined ? '' : `,name=${release}`}`);
    const r = await s.request({ method: 'GET', path: `/api/v1/secrets?labelSelector=${selector}` });
    assert.equal(r.status, 200, r.text);
    return (r.json() as { items: Obj[] }).items.map((o) => o.metadata.name).sort();
  };
  const history = async (release: string): Promise<HistoryEntry[]> =>
    JSON.parse((await helm(['history', release, '-o', 'json'])).stdout) as HistoryEntry[];

  it('installs a release with server-side apply (Helm 4 default)', async () => {
    await helm(['install', 'r1', chart]);
    for (const p of releasePaths('r1')) {
      const o = await get(p);
      assert.equal(o.metadata.labels?.['app.kubernetes.io/managed-by'], 'Helm', p);
    }
    const cm = await get(`/api/v1/namespaces/${NS}/configmaps/r1-cm`);
    assert.deepEqual(cm.data, { greeting: 'hello' });
    assert.ok(cm.metadata.managedFields?.some((m) => m.manager === 'helm' && m.operation === 'Apply'),
      JSON.stringify(cm.metadata.managedFields));
    assert.deepEqual(await releaseSecrets('r1'), ['sh.helm.release.v1.r1.v1']);
  });

  it('upgrades 12 times in every --server-side mode, pruning history to 10 revisions', async () => {
    for (let i = 1; i <= 12; i++) {
      const v = upgradeValues(i);
      const mode = MODES[i % MODES.length] ?? 'auto';
      await helm(['upgrade', 'r1', chart, `--server-side=${mode}`, '--set', `greeting=${v.greeting}`, '--set', `replicas=${v.replicas}`]);
    }
    const revisions = (await history('r1')).map((h) => h.revision);
    assert.deepEqual(revisions, [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    assert.deepEqual(await releaseSecrets('r1'), revisions.map((r) => `sh.helm.release.v1.r1.v${r}`).sort());
    const last = upgradeValues(12);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/r1-cm`)).data, { greeting: last.greeting });
    assert.equal((await get(`/apis/apps/v1/namespaces/${NS}/deployments/r1-deploy`)).spec?.replicas, last.replicas);
    // The hook was deleted and made again before every upgrade.
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/r1-hook`)).data, { revision: '13' });
  });

  it('rolls back to revision 5 and shows its values and manifest', async () => {
    await helm(['rollback', 'r1', '5']);
    const h = await history('r1');
    assert.deepEqual(h.at(-1), { ...h.at(-1), revision: 14, status: 'deployed', description: 'Rollback to 5' });
    assert.equal(h.length, 10);
    const v = upgradeValues(4);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/r1-cm`)).data, { greeting: v.greeting });
    assert.equal((await get(`/apis/apps/v1/namespaces/${NS}/deployments/r1-deploy`)).spec?.replicas, v.replicas);
    assert.deepEqual(JSON.parse((await helm(['get', 'values', 'r1', '-o', 'json'])).stdout), v);
    const manifest = (await helm(['get', 'manifest', 'r1'])).stdout;
    for (const kind of ['ServiceAccount', 'ConfigMap', 'Secret', 'Service', 'Deployment']) {
      assert.match(manifest, new RegExp(`^kind: ${kind}$`, 'm'));
    }
    assert.match((await helm(['get', 'hooks', 'r1'])).stdout, /name: r1-hook/);
    const status = JSON.parse((await helm(['status', 'r1', '-o', 'json'])).stdout) as { info: { status: string } };
    assert.equal(status.info.status, 'deployed');
  });

  it('applies `helm template` output with kubectl, client-side and server-side', async () => {
    const rendered = (await helm(['template', 'r2', chart, '--set', 'greeting=tpl'])).stdout;
    assert.match((await kubectl(['apply', '-f', '-'], rendered)).stdout, /configmap\/r2-cm created/);
    assert.match((await kubectl(['apply', '--server-side', '-f', '-'], rendered)).stdout, /configmap\/r2-cm serverside-applied/);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/r2-cm`)).data, { greeting: 'tpl' });
    await kubectl(['delete', '-f', '-'], rendered);
    for (const p of releasePaths('r2')) assert.equal((await s.request({ method: 'GET', path: p })).status, 404, p);
  });

  it('installs with client-side updates, moves to server-side, and uninstalls waiting for deletion', async () => {
    await helm(['install', 'r3', chart, '--server-side=false']);
    const cm = await get(`/api/v1/namespaces/${NS}/configmaps/r3-cm`);
    assert.ok(cm.metadata.managedFields?.every((m) => m.operation === 'Update'), JSON.stringify(cm.metadata.managedFields));
    await helm(['upgrade', 'r3', chart, '--set', 'greeting=csa']);
    await helm(['upgrade', 'r3', chart, '--server-side=true', '--set', 'greeting=ssa']);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/r3-cm`)).data, { greeting: 'ssa' });
    await helm(['uninstall', 'r3', '--wait']);
    for (const p of releasePaths('r3')) assert.equal((await s.request({ method: 'GET', path: p })).status, 404, p);
    assert.deepEqual(await releaseSecrets('r3'), []);
  });

  it('uninstalls, leaving no release Secret and no release object', async () => {
    await helm(['uninstall', 'r1']);
    assert.deepEqual(await releaseSecrets(), []);
    for (const p of releasePaths('r1')) assert.equal((await s.request({ method: 'GET', path: p })).status, 404, p);
    assert.equal((await helm(['list', '--deployed', '--failed', '--pending', '--uninstalling', '--superseded', '-o', 'json'])).stdout.trim(), '[]');
  });
});

// What differs between two servers by nature: identities, times, allocated addresses.
const PER_SERVER = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'time', 'clusterIP', 'clusterIPs']);
function perServerOut(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(perServerOut);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !PER_SERVER.has(k)).map(([k, x]) => [k, perServerOut(x)]));
}

describe('Helm 4 against kapi and the reference kube-apiserver', { skip: oracleUnavailable() ?? false }, () => {
  let s: Suite;
  let oracle: Oracle;
  let tools: KubectlLayer;
  let dir: string;
  let chart: string;

  before(async () => {
    tools = await kubectlLayer();
    [s, oracle] = await Promise.all([startSuite(), startOracle()]);
    dir = await mkdtemp(join(tmpdir(), 'kapi-e2e-helm-diff-'));
    chart = await writeChart(dir);
  });
  after(async () => {
    await Promise.all([s?.close(), oracle?.stop()]);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('leaves the same objects and managedFields through server-side and client-side upgrades and a rollback', async () => {
    const servers: { name: string; kubeconfigPath: string; request(r: RawRequest): Promise<RawResponse> }[] = [
      { name: 'kapi', kubeconfigPath: s.server.kubeconfigPath, request: s.request },
      { name: 'kube', kubeconfigPath: oracle.kubeconfigPath, request: oracle.request },
    ];
    const steps = [
      ['install', 'r1', chart],
      ['upgrade', 'r1', chart, '--server-side=false', '--set', 'greeting=csa'],
      ['upgrade', 'r1', chart, '--server-side=true', '--set', 'greeting=ssa', '--set', 'replicas=3'],
      ['upgrade', 'r1', chart, '--server-side=false', '--set', 'greeting=csa-again'],
      ['rollback', 'r1', '1'],
    ];
    for (const step of steps) {
      const seen: unknown[] = [];
      for (const server of servers) {
        const home = join(dir, `home-${server.name}`);
        await mkdir(home, { recursive: true });
        const r = await runTool({ kubeconfigPath: server.kubeconfigPath, home }, tools.helm, [...step, '--namespace', NS]);
        assert.equal(r.code, 0, `${server.name}: helm ${step.join(' ')}:\n${r.stdout}${r.stderr}`);
        const objects: unknown[] = [];
        for (const p of releasePaths('r1')) {
          const got = await server.request({ method: 'GET', path: p });
          assert.equal(got.status, 200, `${server.name} GET ${p}: ${got.text}`);
          objects.push(perServerOut(got.json()));
        }
        seen.push(objects);
      }
      assert.deepEqual(seen[0], seen[1], `after helm ${step.join(' ')}`);
    }
  });
});
