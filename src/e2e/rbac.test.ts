// Authorization end to end: a server with --authorization-mode=RBAC and a token file of plain users,
// driven with kubectl as those users (403 messages, roles and bindings granted with kubectl create,
// kubectl auth can-i, --as impersonation, escalation prevention, anonymous requests, service
// accounts), and the default AlwaysAllow mode.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asStatus } from './testing/https-client.ts';
import { lines, writeTokenOnlyKubeconfig } from './testing/kubectl.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const TOKENS = 'alice-token,alice,1001\nbob-token,bob,1002\ncarol-token,carol,1003,"devs"\n';
/**
 * The admin kubeconfig without its client certificate: a certificate would win over --token (kube
 * tries client certificates before bearer tokens), so kubectl would stay the admin.
 */
let tokenKubeconfig = '';
const withToken = (token: string): string[] => ['--kubeconfig', tokenKubeconfig, '--token', token];
const as = (user: string): string[] => withToken(`${user}-token`);

describe('RBAC authorization (--authorization-mode=RBAC)', () => {
  let s: Suite;
  let dir: string;
  const k = async (args: string[], input?: string) => s.kubectl(args, input);
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await k(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  /** Waits until the RBAC authorizer has seen a grant: the command succeeds. */
  const eventuallyOk = (what: string, args: string[]) => eventually(what, async () => ((await k(args)).code === 0 ? true : undefined));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-rbac-'));
    await writeFile(join(dir, 'tokens.csv'), TOKENS);
    s = await startSuite({ flags: ['--authorization-mode=RBAC', '--token-auth-file', join(dir, 'tokens.csv')] });
    tokenKubeconfig = join(dir, 'token.kubeconfig');
    await writeTokenOnlyKubeconfig(s.server.kubeconfigPath, tokenKubeconfig);
    // kubectl runs as alice with the admin's discovery cache otherwise: let her discover on her own.
    await eventuallyOk('discovery for alice', ['api-resources', ...as('alice'), '-o', 'name']);
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('forbids with kube\'s messages: namespaced, cluster scope, named, API group, subresource', async () => {
    const cases = [
      { args: ['get', 'configmaps'], want: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"' },
      { args: ['get', 'namespaces'], want: 'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope' },
      { args: ['get', 'configmap', 'kube-root-ca.crt'],
        want: 'configmaps "kube-root-ca.crt" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "default"' },
      { args: ['get', 'clusterroles'],
        want: 'clusterroles.rbac.authorization.k8s.io is forbidden: User "alice" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope' },
      { args: ['get', 'deployments', '-n', 'kube-system'],
        want: 'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "kube-system"' },
    ];
    for (const c of cases) {
      const r = await k([...c.args, ...as('alice')]);
      assert.equal(r.code, 1, c.args.join(' '));
      assert.equal(r.stderr, `Error from server (Forbidden): ${c.want}\n`);
    }
    const exec = await s.request({ method: 'POST', path: '/api/v1/namespaces/default/pods/web/exec?command=ls', auth: false,
      headers: { Authorization: 'Bearer alice-token' } });
    assert.equal(exec.status, 403);
    assert.deepEqual(exec.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'pods "web" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"',
      reason: 'Forbidden', details: { name: 'web', kind: 'pods' }, code: 403,
    });
  });

  it('anonymous requests: public info allowed, the rest 403; bad tokens 401', async () => {
    const healthz = await s.request({ method: 'GET', path: '/healthz', auth: false });
    assert.equal(healthz.status, 200);
    assert.equal(healthz.text, 'ok');
    const api = await s.request({ method: 'GET', path: '/api', auth: false });
    assert.equal(api.status, 403);
    assert.deepEqual(api.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "system:anonymous" cannot get path "/api"',
      reason: 'Forbidden', details: {}, code: 403,
    });
    const pods = await s.request({ method: 'GET', path: '/api/v1/namespaces/default/pods', auth: false });
    assert.equal(asStatus(pods.json()).message,
      'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"');
    const bad = await s.request({ method: 'GET', path: '/healthz', auth: false, headers: { Authorization: 'Bearer wrong' } });
    assert.equal(bad.status, 401);
  });

  it('roles and bindings made with kubectl create grant access promptly; auth can-i answers', async () => {
    await ok(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods', '-n', 'default']);
    assert.equal((await k(['auth', 'can-i', 'list', 'pods', ...as('alice')])).stdout, 'no\n');
    await ok(['create', 'rolebinding', 'alice-pods', '--role=pod-reader', '--user=alice', '-n', 'default']);
    await eventuallyOk('alice lists pods', ['get', 'pods', ...as('alice')]);
    const can = await k(['auth', 'can-i', 'list', 'pods', ...as('alice')]);
    assert.deepEqual([can.code, can.stdout], [0, 'yes\n']);
    const cannot = await k(['auth', 'can-i', 'delete', 'pods', ...as('alice')]);
    assert.deepEqual([cannot.code, cannot.stdout], [1, 'no\n']);
    assert.equal((await k(['auth', 'can-i', 'list', 'pods', '-n', 'kube-system', ...as('alice')])).stdout, 'no\n');
    // The admin asks about alice with --as; SubjectAccessReview explains the allow.
    assert.equal((await k(['auth', 'can-i', 'watch', 'pods', '--as', 'alice'])).stdout, 'yes\n');
    // --validate=false: kubectl's schema download for this kind falls back to protobuf /openapi/v2, which kapi does not serve.
    const sar = JSON.parse(await ok(['create', '--validate=false', '-o', 'json', '-f', '-'], JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'alice', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
    }))) as { status: unknown };
    assert.deepEqual(sar.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-pods/default" of Role "pod-reader" to User "alice"' });

    const list = lines(await ok(['auth', 'can-i', '--list', ...as('alice')]));
    assert.match(list[0] ?? '', /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    assert.ok(list.some((l) => /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/.test(l)), list.join('\n'));
    assert.ok(list.some((l) => /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/.test(l)), list.join('\n'));
    assert.ok(list.some((l) => /^\s+\[\/healthz\]\s+\[\]\s+\[get\]$/.test(l)), list.join('\n'));
    const elsewhere = lines(await ok(['auth', 'can-i', '--list', '-n', 'kube-system', ...as('alice')]));
    assert.ok(!elsewhere.some((l) => l.startsWith('pods ')), elsewhere.join('\n'));
  });

  it('groups from the token file and ClusterRoleBindings to groups', async () => {
    await ok(['create', 'clusterrole', 'ns-viewer', '--verb=get,list', '--resource=namespaces']);
    await ok(['create', 'clusterrolebinding', 'devs-ns', '--clusterrole=ns-viewer', '--group=devs']);
    await eventuallyOk('carol lists namespaces', ['get', 'namespaces', ...as('carol')]);
    assert.equal((await k(['auth', 'can-i', 'list', 'namespaces', ...as('bob')])).stdout, 'no\n');
    const whoami = lines(await ok(['auth', 'whoami', ...as('carol')]));
    assert.ok(whoami.some((l) => /^Groups\s+\[devs system:authenticated\]$/.test(l)), whoami.join('\n'));
  });

  it('--as impersonation: allowed for system:masters, refused without impersonate, allowed with it', async () => {
    await eventuallyOk('alice\'s binding', ['get', 'pods', '--as', 'alice']);
    const asAlice = await k(['get', 'secrets', '--as', 'alice']);
    assert.equal(asAlice.stderr, 'Error from server (Forbidden): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"\n');
    const whoami = lines(await ok(['auth', 'whoami', '--as', 'alice', '--as-group', 'devs']));
    assert.ok(whoami.some((l) => /^Username\s+alice$/.test(l)), whoami.join('\n'));
    assert.ok(whoami.some((l) => /^Groups\s+\[devs system:authenticated\]$/.test(l)), whoami.join('\n'));

    const refused = await k(['get', 'pods', '--as', 'alice', ...as('bob')]);
    assert.equal(refused.stderr, 'Error from server (Forbidden): pods is forbidden: User "bob" cannot impersonate-on:user-info:list resource "pods" in API group "" in the namespace "default"\n');

    await ok(['create', 'clusterrole', 'impersonate-alice', '--verb=impersonate', '--resource=users', '--resource-name=alice']);
    await ok(['create', 'clusterrolebinding', 'bob-impersonates-alice', '--clusterrole=impersonate-alice', '--user=bob']);
    await eventuallyOk('bob acts as alice', ['get', 'pods', '--as', 'alice', ...as('bob')]);
    const other = await k(['get', 'pods', '--as', 'carol', ...as('bob')]);
    assert.equal(other.stderr, 'Error from server (Forbidden): users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope\n');
    const group = await k(['get', 'pods', '--as', 'alice', '--as-group', 'devs', ...as('bob')]);
    assert.equal(group.stderr, 'Error from server (Forbidden): groups "devs" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope\n');
    assert.equal((await k(['auth', 'can-i', 'list', 'pods', '--as', 'alice', ...as('bob')])).stdout, 'yes\n');
  });

  it('escalation: roles and bindings grant only what the writer holds, unless escalate or bind', async () => {
    await eventuallyOk('alice\'s pod-reader binding', ['get', 'pods', ...as('alice')]);
    await ok(['create', 'role', 'rbac-editor', '--verb=get,list,create,update,patch,delete', '--resource=roles,rolebindings', '-n', 'default']);
    await ok(['create', 'rolebinding', 'alice-rbac-editor', '--role=rbac-editor', '--user=alice', '-n', 'default']);
    await eventuallyOk('alice lists roles', ['get', 'roles', ...as('alice')]);

    // What alice holds she may grant.
    assert.equal(await ok(['create', 'role', 'getter', '--verb=get', '--resource=pods', ...as('alice')]), 'role.rbac.authorization.k8s.io/getter created\n');
    const escalating = await k(['create', 'role', 'deleter', '--verb=delete,get', '--resource=pods,secrets', ...as('alice')]);
    assert.equal(escalating.code, 1);
    assert.equal(escalating.stderr, 'Error from server (Forbidden): roles.rbac.authorization.k8s.io "deleter" is forbidden: ' +
      'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["delete" "get"]}\n');
    // Updates are checked too.
    const patched = await k(['patch', 'role', 'getter', '--type=json', '-p', '[{"op":"add","path":"/rules/0/verbs/-","value":"delete"}]', ...as('alice')]);
    assert.match(patched.stderr, /roles.rbac.authorization.k8s.io "getter" is forbidden: user "alice" .* not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}/);

    await ok(['create', 'role', 'escalator', '--verb=escalate', '--resource=roles', '-n', 'default']);
    await ok(['create', 'rolebinding', 'alice-escalates', '--role=escalator', '--user=alice', '-n', 'default']);
    await eventuallyOk('alice may escalate', ['create', 'role', 'deleter', '--verb=delete,get', '--resource=pods,secrets', ...as('alice')]);

    // Binding a role alice holds is fine; binding one she does not needs bind.
    assert.equal(await ok(['create', 'rolebinding', 'bob-getter', '--role=getter', '--user=bob', ...as('alice')]),
      'rolebinding.rbac.authorization.k8s.io/bob-getter created\n');
    const binding = await k(['create', 'rolebinding', 'bob-deleter', '--role=deleter', '--user=bob', ...as('alice')]);
    // kubectl create rolebinding wraps the server's message (create role does not).
    assert.equal(binding.stderr, 'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "bob-deleter" is forbidden: ' +
      'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["delete" "get"]}\n');
    const missing = await k(['create', 'rolebinding', 'bob-nothing', '--role=nothing', '--user=bob', ...as('alice')]);
    assert.equal(missing.stderr, 'error: failed to create rolebinding: roles.rbac.authorization.k8s.io "nothing" not found\n');
    await ok(['create', 'role', 'binder', '--verb=bind', '--resource=roles', '--resource-name=deleter', '-n', 'default']);
    await ok(['create', 'rolebinding', 'alice-binds', '--role=binder', '--user=alice', '-n', 'default']);
    await eventuallyOk('alice may bind deleter', ['create', 'rolebinding', 'bob-deleter', '--role=deleter', '--user=bob', ...as('alice')]);
    await eventuallyOk('bob deletes pods', ['auth', 'can-i', 'delete', 'pods', ...as('bob')]);

    // system:masters is never checked.
    await ok(['create', 'clusterrole', 'everything', '--verb=*', '--resource=*.*']);
  });

  it('service account tokens carry the service account groups', async () => {
    await ok(['create', 'serviceaccount', 'robot', '-n', 'default']);
    const token = (await ok(['create', 'token', 'robot', '-n', 'default'])).trim();
    const denied = await k(['get', 'pods', ...withToken(token)]);
    assert.equal(denied.stderr, 'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"\n');
    await ok(['create', 'rolebinding', 'robot-pods', '--role=pod-reader', '--serviceaccount=default:robot', '-n', 'default']);
    await eventuallyOk('robot lists pods', ['get', 'pods', ...withToken(token)]);
    const whoami = lines(await ok(['auth', 'whoami', ...withToken(token)]));
    assert.ok(whoami.some((l) => /^Groups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]$/.test(l)), whoami.join('\n'));
  });
});

describe('AlwaysAllow (the default --authorization-mode)', () => {
  let s: Suite;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-allow-'));
    await writeFile(join(dir, 'tokens.csv'), TOKENS);
    s = await startSuite({ flags: ['--token-auth-file', join(dir, 'tokens.csv')] });
    tokenKubeconfig = join(dir, 'token.kubeconfig');
    await writeTokenOnlyKubeconfig(s.server.kubeconfigPath, tokenKubeconfig);
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('lets every authenticated user do everything', async () => {
    assert.equal((await s.kubectl(['create', 'configmap', 'by-bob', '--from-literal=a=b', ...as('bob')])).code, 0);
    assert.equal((await s.kubectl(['get', 'secrets', '-A', ...as('bob')])).code, 0);
    assert.equal((await s.kubectl(['create', 'clusterrole', 'anything', '--verb=*', '--resource=*.*', ...as('bob')])).code, 0);
    assert.equal((await s.kubectl(['auth', 'can-i', '*', '*', ...as('bob')])).stdout, 'yes\n');
    const list = lines((await s.kubectl(['auth', 'can-i', '--list', ...as('bob')])).stdout);
    assert.ok(list.some((l) => /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/.test(l)), list.join('\n'));
    assert.equal((await s.kubectl(['get', 'pods', '--as', 'someone', ...as('bob')])).code, 0);
  });

  it('turns anonymous requests off: 401 everywhere', async () => {
    for (const path of ['/healthz', '/version', '/api', '/api/v1/namespaces']) {
      const r = await s.request({ method: 'GET', path, auth: false });
      assert.equal(r.status, 401, path);
      assert.deepEqual(r.json(), {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401,
      });
    }
  });
});
