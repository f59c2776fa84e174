// kubectl's imperative commands against kapi: create <kind>, run, expose, edit, set, label, annotate,
// patch, replace --force, describe, and the get output formats. Each checks kubectl's output lines and
// the object as stored, as kube-apiserver would answer them. (No apps/batch commands: those groups are
// not served yet.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { columns, lines } from './testing/kubectl.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-imperative';

interface Port { name?: string; port: number; protocol?: string; targetPort?: number | string; nodePort?: number }
interface Obj {
  kind: string;
  type?: string;
  metadata: { name: string; uid: string; resourceVersion: string; labels?: Record<string, string>;
    annotations?: Record<string, string>; managedFields?: { manager: string; operation: string }[] };
  data?: Record<string, string>;
  spec?: {
    type?: string; clusterIP?: string; clusterIPs?: string[]; externalName?: string; ports?: Port[];
    selector?: Record<string, string>; hard?: Record<string, string>;
    containers?: { name: string; image: string; env?: unknown[] }[]; serviceAccountName?: string;
  };
  status?: Record<string, unknown>;
}

const FORBIDDEN_POD_UPDATE = 'Pod "nginx" is invalid: spec: Forbidden: pod updates may not change fields other than ' +
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` ' +
  '(only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');

describe('kubectl imperative commands', () => {
  let s: Suite;
  let dir: string;
  const ok = async (args: readonly string[], input?: string, env?: Record<string, string>): Promise<string> => {
    const r = await s.kubectl(args, input, env);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (what: string, ns: string = NS): Promise<Obj> =>
    JSON.parse(await ok(['get', what, '-n', ns, '-o', 'json', '--show-managed-fields'])) as Obj;

  before(async () => {
    s = await startSuite();
    dir = await mkdtemp(join(tmpdir(), 'kapi-e2e-imperative-'));
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('create namespace', async () => {
    assert.equal(await ok(['create', 'namespace', NS]), `namespace/${NS} created\n`);
    const ns = await get(`namespace/${NS}`);
    assert.deepEqual(ns.metadata.labels, { 'kubernetes.io/metadata.name': NS });
    assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(ns.status, { phase: 'Active' });
  });

  it('create configmap --from-literal and --from-file', async () => {
    const file = join(dir, 'app.properties');
    await writeFile(file, 'color=blue\nsize=2\n');
    const cases = [
      { name: 'lit', args: ['--from-literal=a=b', '--from-literal=x=y z'], want: { a: 'b', x: 'y z' } },
      { name: 'file', args: [`--from-file=${file}`, `--from-file=renamed=${file}`],
        want: { 'app.properties': 'color=blue\nsize=2\n', renamed: 'color=blue\nsize=2\n' } },
    ];
    for (const c of cases) {
      assert.equal(await ok(['create', 'configmap', c.name, '-n', NS, ...c.args]), `configmap/${c.name} created\n`, c.name);
      const cm = await get(`configmap/${c.name}`);
      assert.deepEqual(cm.data, c.want, c.name);
      assert.equal(cm.metadata.labels, undefined, c.name);
    }
  });

  it('create secret generic, tls and docker-registry', async () => {
    const key = join(dir, 'tls.key');
    const crt = join(dir, 'tls.crt');
    await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', crt,
      '-days', '1', '-subj', '/CN=e2e.example.com']);
    const [keyPem, crtPem] = [await readFile(key), await readFile(crt)];
    const dockerConfig = { auths: { 'reg.example.com': { username: 'u', password: 'p', email: 'u@example.com', auth: b64('u:p') } } };
    const cases = [
      { name: 'generic', args: ['generic', 'generic', '--from-literal=user=admin', '--from-literal=password=hunter2'],
        type: 'Opaque', data: { user: b64('admin'), password: b64('hunter2') } },
      { name: 'tls', args: ['tls', 'tls', `--cert=${crt}`, `--key=${key}`],
        type: 'kubernetes.io/tls', data: { 'tls.crt': b64(crtPem), 'tls.key': b64(keyPem) } },
      { name: 'docker-registry', args: ['docker-registry', 'docker-registry', '--docker-server=reg.example.com',
        '--docker-username=u', '--docker-password=p', '--docker-email=u@example.com'],
      type: 'kubernetes.io/dockerconfigjson', data: undefined },
    ];
    for (const c of cases) {
      assert.equal(await ok(['create', 'secret', ...c.args, '-n', NS]), `secret/${c.name} created\n`, c.name);
      const sec = await get(`secret/${c.name}`);
      assert.equal(sec.type, c.type, c.name);
      if (c.data !== undefined) assert.deepEqual(sec.data, c.data, c.name);
    }
    const dockercfg = (await get('secret/docker-registry')).data?.['.dockerconfigjson'] ?? '';
    assert.deepEqual(JSON.parse(Buffer.from(dockercfg, 'base64').toString('utf8')), dockerConfig);
  });

  it('create serviceaccount and quota', async () => {
    assert.equal(await ok(['create', 'serviceaccount', 'robot', '-n', NS]), 'serviceaccount/robot created\n');
    const sa = await get('serviceaccount/robot');
    assert.equal(sa.kind, 'ServiceAccount');
    assert.equal((sa as { secrets?: unknown }).secrets, undefined, 'no token secret since 1.24');

    // In a namespace of its own: the quota is enforced (see resource-quota.test.ts), and the pods and
    // services the other tests create in NS would go past it.
    const quotaNS = `${NS}-quota`;
    await ok(['create', 'namespace', quotaNS]);
    assert.equal(await ok(['create', 'quota', 'compute', '-n', quotaNS, '--hard=cpu=1,memory=1G,pods=2,services=3']),
      'resourcequota/compute created\n');
    const q = await get('resourcequota/compute', quotaNS);
    assert.deepEqual(q.spec, { hard: { cpu: '1', memory: '1G', pods: '2', services: '3' } });
  });

  it('create service clusterip|nodeport|loadbalancer|externalname allocates IPs and node ports', async () => {
    const cases = [
      { type: 'clusterip', name: 'cip', args: ['--tcp=80:8080'], kind: 'ClusterIP', ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }] },
      { type: 'nodeport', name: 'np', args: ['--tcp=80:8080'], kind: 'NodePort', ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }] },
      { type: 'loadbalancer', name: 'lb', args: ['--tcp=443:https'], kind: 'LoadBalancer', ports: [{ name: '443-https', port: 443, protocol: 'TCP', targetPort: 'https' }] },
      { type: 'externalname', name: 'ext', args: ['--external-name=db.example.com'], kind: 'ExternalName', ports: undefined },
      { type: 'clusterip', name: 'headless', args: ['--clusterip=None'], kind: 'ClusterIP', ports: undefined },
    ];
    const ips = new Set<string>();
    const statuses: [string, unknown][] = [];
    for (const c of cases) {
      assert.equal(await ok(['create', 'service', c.type, c.name, '-n', NS, ...c.args]), `service/${c.name} created\n`, c.name);
      const svc = await get(`service/${c.name}`);
      const spec = svc.spec ?? {};
      assert.equal(spec.type, c.kind, c.name);
      assert.deepEqual(svc.metadata.labels, { app: c.name }, c.name);
      assert.deepEqual(spec.selector, { app: c.name }, c.name);
      statuses.push([c.name, svc.status]);
      assert.deepEqual(spec.ports?.map(({ nodePort: _, ...p }) => p), c.ports, c.name);
      if (c.kind === 'ExternalName') {
        assert.equal(spec.externalName, 'db.example.com');
        assert.equal(spec.clusterIP, undefined, 'ExternalName gets no clusterIP');
        assert.equal(spec.clusterIPs, undefined);
        continue;
      }
      if (c.name === 'headless') {
        assert.deepEqual([spec.clusterIP, spec.clusterIPs], ['None', ['None']]);
        continue;
      }
      const ip = spec.clusterIP ?? '';
      const m = /^10\.0\.0\.([0-9]+)$/.exec(ip);
      assert.ok(m !== null && Number(m[1]) >= 1 && Number(m[1]) <= 254, `${c.name}: clusterIP ${ip} from 10.0.0.0/24`);
      assert.deepEqual(spec.clusterIPs, [ip], c.name);
      assert.ok(!ips.has(ip), `${c.name}: ${ip} allocated twice`);
      ips.add(ip);
      for (const p of spec.ports ?? []) {
        if (c.kind === 'ClusterIP') assert.equal(p.nodePort, undefined, c.name);
        else assert.ok(p.nodePort !== undefined && p.nodePort >= 30000 && p.nodePort <= 32767, `${c.name}: nodePort ${p.nodePort}`);
      }
    }
    // Go's encoding/json never omits the (struct) loadBalancer field, so every Service reads back with it.
    assert.deepEqual(statuses, cases.map((c) => [c.name, { loadBalancer: {} }]));
  });

  it('run creates a pod labelled run=<name>; expose selects it', async () => {
    assert.equal(await ok(['run', 'nginx', '--image=nginx', '-n', NS]), 'pod/nginx created\n');
    const pod = await get('pod/nginx');
    assert.deepEqual(pod.metadata.labels, { run: 'nginx' });
    assert.deepEqual(pod.spec?.containers?.map((c) => [c.name, c.image]), [['nginx', 'nginx']]);
    assert.deepEqual(pod.status, { phase: 'Pending', qosClass: 'BestEffort' });

    assert.equal(await ok(['expose', 'pod', 'nginx', '--port=80', '-n', NS]), 'service/nginx exposed\n');
    const svc = await get('service/nginx');
    assert.deepEqual(svc.metadata.labels, { run: 'nginx' });
    assert.deepEqual(svc.spec?.selector, { run: 'nginx' });
    assert.deepEqual(svc.spec?.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    assert.equal(svc.spec?.type, 'ClusterIP');
  });

  it('edit with a scripted EDITOR patches the object; an unchanged buffer cancels', async () => {
    await ok(['create', 'configmap', 'ed', '-n', NS, '--from-literal=a=b']);
    const rv = (await get('configmap/ed')).metadata.resourceVersion;
    const edited = await s.kubectl(['edit', 'configmap/ed', '-n', NS], undefined, { EDITOR: "sed -i 's/a: b/a: c/'" });
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(edited.stdout, 'configmap/ed edited\n');
    const after = await get('configmap/ed');
    assert.deepEqual(after.data, { a: 'c' });
    assert.notEqual(after.metadata.resourceVersion, rv);

    const same = await s.kubectl(['edit', 'configmap/ed', '-n', NS], undefined, { EDITOR: 'true' });
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, '');
    assert.equal(same.stderr, 'Edit cancelled, no changes made.\n');
    assert.equal((await get('configmap/ed')).metadata.resourceVersion, after.metadata.resourceVersion);
  });

  it('set image, selector; set env/resources/serviceaccount on a pod are forbidden updates', async () => {
    assert.equal(await ok(['set', 'image', 'pod/nginx', 'nginx=nginx:1.27', '-n', NS]), 'pod/nginx image updated\n');
    assert.equal((await get('pod/nginx')).spec?.containers?.[0]?.image, 'nginx:1.27');

    await ok(['create', 'service', 'clusterip', 'sel', '--tcp=80', '-n', NS]);
    assert.equal(await ok(['set', 'selector', 'service/sel', 'app=y', '-n', NS]), 'service/sel selector updated\n');
    assert.deepEqual((await get('service/sel')).spec?.selector, { app: 'y' });

    const before = await get('pod/nginx');
    const cases = [
      { name: 'set env', args: ['env', 'pod/nginx', 'FOO=bar'], prefix: 'error: failed to patch env update to pod template: ' },
      { name: 'set resources', args: ['resources', 'pod/nginx', '--limits=cpu=200m'], prefix: 'error: failed to patch resources update to pod template ' },
      { name: 'set serviceaccount', args: ['serviceaccount', 'pod/nginx', 'robot'], prefix: 'error: failed to patch ServiceAccountName ' },
    ];
    for (const c of cases) {
      const r = await s.kubectl(['set', ...c.args, '-n', NS]);
      assert.equal(r.code, 1, c.name);
      assert.equal(r.stdout, '', c.name);
      assert.equal(r.stderr.split('\n')[0], c.prefix + FORBIDDEN_POD_UPDATE, c.name);
    }
    assert.equal((await get('pod/nginx')).metadata.resourceVersion, before.metadata.resourceVersion, 'nothing stored');
  });

  it('label and annotate, with and without --overwrite', async () => {
    await ok(['create', 'configmap', 'lab', '-n', NS, '--from-literal=k=v']);
    assert.equal(await ok(['label', 'configmap', 'lab', 'x=y', '-n', NS]), 'configmap/lab labeled\n');
    const clash = await s.kubectl(['label', 'configmap', 'lab', 'x=z', '-n', NS]);
    assert.equal(clash.code, 1);
    assert.equal(clash.stderr, "error: 'x' already has a value (y), and --overwrite is false\n");
    assert.equal(await ok(['label', '--overwrite', 'configmap', 'lab', 'x=z', '-n', NS]), 'configmap/lab labeled\n');
    assert.deepEqual((await get('configmap/lab')).metadata.labels, { x: 'z' });

    assert.equal(await ok(['annotate', 'configmap', 'lab', 'note=hi', '-n', NS]), 'configmap/lab annotated\n');
    const aclash = await s.kubectl(['annotate', 'configmap', 'lab', 'note=ho', '-n', NS]);
    assert.equal(aclash.code, 1);
    assert.equal(aclash.stderr, "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (hi)\n");
    assert.equal(await ok(['annotate', '--overwrite', 'configmap', 'lab', 'note=ho', '-n', NS]), 'configmap/lab annotated\n');
    assert.deepEqual((await get('configmap/lab')).metadata.annotations, { note: 'ho' });
  });

  it('patch (strategic by default): containers merge by name; $patch: delete removes a port', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'two' },
      spec: { containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] } };
    await ok(['create', '-f', '-', '-n', NS], JSON.stringify(pod));
    assert.equal(await ok(['patch', 'pod', 'two', '-n', NS, '-p', '{"spec":{"containers":[{"name":"b","image":"busybox:1.36"}]}}']),
      'pod/two patched\n');
    assert.deepEqual((await get('pod/two')).spec?.containers?.map((c) => `${c.name}=${c.image}`), ['a=busybox', 'b=busybox:1.36']);

    await ok(['create', 'service', 'clusterip', 'multi', '--tcp=80:8080', '--tcp=443:8443', '-n', NS]);
    assert.equal(await ok(['patch', 'service', 'multi', '-n', NS, '-p',
      '{"spec":{"ports":[{"port":443,"$patch":"delete"},{"name":"alt","port":8081,"targetPort":81}]}}']), 'service/multi patched\n');
    // Items only in the patch come before the items kept from the live list.
    assert.deepEqual((await get('service/multi')).spec?.ports, [
      { name: 'alt', port: 8081, protocol: 'TCP', targetPort: 81 },
      { name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 },
    ]);
  });

  it('replace --force deletes and recreates the object (new uid)', async () => {
    const old = await get('configmap/ed');
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ed', namespace: NS }, data: { forced: 'yes' } };
    const r = await s.kubectl(['replace', '--force', '-f', '-'], JSON.stringify(body));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap "ed" deleted\nconfigmap/ed replaced\n');
    const now = await get('configmap/ed');
    assert.notEqual(now.metadata.uid, old.metadata.uid);
    assert.deepEqual(now.data, { forced: 'yes' });
  });

  it('each command records its field manager in managedFields', async () => {
    // Entries written in the same second are ordered by manager name, so compare them sorted.
    const cases = [
      { what: 'configmap/lab', want: ['kubectl-annotate/Update', 'kubectl-create/Update', 'kubectl-label/Update'] },
      { what: 'pod/nginx', want: ['kubectl-run/Update', 'kubectl-set/Update'] },
      { what: 'service/nginx', want: ['kubectl-expose/Update'] },
      { what: 'pod/two', want: ['kubectl-create/Update', 'kubectl-patch/Update'] },
      { what: 'configmap/ed', want: ['kubectl-replace/Update'] },
    ];
    for (const c of cases) {
      const got = (await get(c.what)).metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`).sort();
      assert.deepEqual(got, c.want, c.what);
    }
  });
});

describe('kubectl describe and get output formats', () => {
  let s: Suite;
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const D = 'e2e-describe';

  before(async () => {
    s = await startSuite();
    await ok(['create', 'namespace', D]);
    await ok(['run', 'web', '--image=nginx:1.27', '-n', D]);
    await ok(['expose', 'pod', 'web', '--port=80', '--target-port=8080', '-n', D]);
    await ok(['create', 'configmap', 'cfg', '--from-literal=a=1', '--from-literal=b=2', '-n', D]);
    await ok(['create', 'configmap', 'more', '--from-literal=c=3', '-n', D]);
  });
  after(async () => { await s?.close(); });

  const event = (name: string, kind: string, objName: string, uid: string, reason: string, message: string): string => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    return JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: D },
      involvedObject: { apiVersion: 'v1', kind, name: objName, namespace: D, uid },
      reason, message, type: 'Normal', source: { component: 'kubelet' }, count: 1, firstTimestamp: now, lastTimestamp: now });
  };

  // kubectl 1.32 selects the events by involvedObject.uid, .name and .namespace (it sends no .kind).
  it('describe pod shows the events of that pod only (field selector on involvedObject)', async () => {
    const uid = (JSON.parse(await ok(['get', 'pod', 'web', '-n', D, '-o', 'json'])) as Obj).metadata.uid;
    const evs = [
      event('web.1', 'Pod', 'web', uid, 'Pulled', 'Successfully pulled image "nginx:1.27"'),
      event('web.2', 'Pod', 'web', 'a-previous-pod-uid', 'Killing', 'from an older pod of the same name'),
      event('web.3', 'ConfigMap', 'web-config', 'a-configmap-uid', 'Other', 'not about the pod'),
    ];
    for (const e of evs) assert.match(await ok(['create', '-f', '-'], e), /^event\/web\.[123] created\n$/);
    const out = await ok(['describe', 'pod', 'web', '-n', D]);
    // Priority and the service account come from the Priority and ServiceAccount admission plugins.
    const want = ['Name:             web', `Namespace:        ${D}`, 'Priority:         0', 'Service Account:  default',
      'Labels:           run=web', 'Status:           Pending', '  web:', '    Image:        nginx:1.27',
      'QoS Class:                   BestEffort', 'Events:'];
    for (const w of want) assert.ok(lines(out).includes(w), `describe pod lacks ${JSON.stringify(w)}:\n${out}`);
    const events = lines(out.slice(out.indexOf('\nEvents:\n'))).slice(1).map(columns);
    assert.deepEqual(events[0], ['Type', 'Reason', 'Age', 'From', 'Message']);
    assert.deepEqual(events.slice(2).map((c) => [c[0], c[1], c[3], c[4]]),
      [['Normal', 'Pulled', 'kubelet', 'Successfully pulled image "nginx:1.27"']]);
  });

  it('describe service, configmap and namespace', async () => {
    const svc = JSON.parse(await ok(['get', 'service', 'web', '-n', D, '-o', 'json'])) as Obj;
    const ip = svc.spec?.clusterIP ?? '';
    assert.equal(await ok(['describe', 'service', 'web', '-n', D]), [
      'Name:                     web', `Namespace:                ${D}`, 'Labels:                   run=web',
      'Annotations:              <none>', 'Selector:                 run=web', 'Type:                     ClusterIP',
      'IP Family Policy:         SingleStack', 'IP Families:              IPv4', `IP:                       ${ip}`,
      `IPs:                      ${ip}`, 'Port:                     <unset>  80/TCP', 'TargetPort:               8080/TCP',
      'Endpoints:                <none>', 'Session Affinity:         None', 'Internal Traffic Policy:  Cluster',
      'Events:                   <none>', ''].join('\n'));
    // kubectl prints the data keys in Go map order, which varies from run to run.
    const cmDescription = (keys: readonly string[][]): string => [
      'Name:         cfg', `Namespace:    ${D}`, 'Labels:       <none>', 'Annotations:  <none>', '',
      'Data', '====', ...keys.flat(), '', 'BinaryData', '====', '', 'Events:  <none>', ''].join('\n');
    const a = ['a:', '----', '1', ''];
    const b = ['b:', '----', '2', ''];
    assert.ok([cmDescription([a, b]), cmDescription([b, a])].includes(await ok(['describe', 'configmap', 'cfg', '-n', D])));
    assert.equal(await ok(['describe', 'namespace', D]), [
      `Name:         ${D}`, `Labels:       kubernetes.io/metadata.name=${D}`, 'Annotations:  <none>', 'Status:       Active', '',
      'No resource quota.', '', 'No LimitRange resource.', ''].join('\n'));
  });

  it('get -o wide adds IP/NODE for pods and SELECTOR for services', async () => {
    const pods = lines(await ok(['get', 'pods', '-o', 'wide', '-n', D])).map(columns);
    assert.deepEqual(pods[0], ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    const web = pods[1] ?? [];
    assert.deepEqual([...web.slice(0, 4), ...web.slice(5)], ['web', '0/1', 'Pending', '0', '<none>', '<none>', '<none>', '<none>']);

    const svcs = lines(await ok(['get', 'services', '-o', 'wide', '-n', D])).map(columns);
    assert.deepEqual(svcs[0], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
    const row = svcs[1] ?? [];
    assert.deepEqual([row[0], row[1], row[3], row[4], row[6]], ['web', 'ClusterIP', '<none>', '80/TCP', 'run=web']);
  });

  it('get -o custom-columns and -o go-template', async () => {
    // The selector leaves out kube-root-ca.crt, which every namespace holds.
    assert.equal(await ok(['get', 'configmaps', '-n', D, '--field-selector', 'metadata.name!=kube-root-ca.crt', '-o', 'custom-columns=NAME:.metadata.name,DATA:.data']),
      'NAME   DATA\ncfg    map[a:1 b:2]\nmore   map[c:3]\n');
    assert.equal(await ok(['get', 'configmaps', '-n', D, '--field-selector', 'metadata.name!=kube-root-ca.crt', '-o', 'go-template={{range .items}}{{.metadata.name}} {{end}}']), 'cfg more ');
  });
});
