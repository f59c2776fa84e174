// PodSecurity as a kubectl user sees it: a pod refused by the namespace's enforce level (and not
// stored), warnings for a pod, a deployment and a namespace label change that would violate a
// level, with kube's texts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, type Suite } from './testing/suite.ts';

const RESTRICTED_BARE = 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const hostNetworkPod = (name: string): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'busybox' }] },
});

describe('PodSecurity with kubectl', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    for (const ns of ['psa-enforce', 'psa-warn']) assert.equal((await s.kubectl(['create', 'namespace', ns])).code, 0);
    const labelled = await s.kubectl(['label', 'namespace', 'psa-enforce', 'pod-security.kubernetes.io/enforce=restricted']);
    assert.equal(labelled.stdout, 'namespace/psa-enforce labeled\n');
    assert.equal((await s.kubectl(['label', 'namespace', 'psa-warn', 'pod-security.kubernetes.io/warn=baseline'])).code, 0);
  });
  after(async () => { await s?.close(); });

  it('refuses a pod that violates the enforce level, and stores nothing', async () => {
    const r = await s.kubectl(['run', 'c', '--image=busybox', '-n', 'psa-enforce']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `Error from server (Forbidden): pods "c" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_BARE}\n`);
    const get = await s.kubectl(['get', 'pod', 'c', '-n', 'psa-enforce']);
    assert.equal(get.stderr, 'Error from server (NotFound): pods "c" not found\n');
  });

  it('creates a deployment with a violating template, with a warning', async () => {
    const r = await s.kubectl(['create', 'deployment', 'd', '--image=busybox', '-n', 'psa-enforce']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'deployment.apps/d created\n');
    assert.equal(r.stderr, `Warning: would violate PodSecurity "restricted:latest": ${RESTRICTED_BARE.replaceAll('"c"', '"busybox"')}\n`);
  });

  it('creates a pod that violates the warn level, with a warning', async () => {
    const r = await s.kubectl(['create', '-f', '-', '-n', 'psa-warn'], hostNetworkPod('hn'));
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'pod/hn created\n');
    assert.equal(r.stderr, 'Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)\n');
  });

  it('warns about existing pods when the enforce level tightens', async () => {
    const r = await s.kubectl(['label', 'namespace', 'psa-warn', 'pod-security.kubernetes.io/enforce=baseline']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'namespace/psa-warn labeled\n');
    assert.equal(r.stderr, 'Warning: existing pods in namespace "psa-warn" violate the new PodSecurity enforce level "baseline:latest"\n' +
      'Warning: hn: host namespaces\n');
  });

  it('refuses an invalid level label', async () => {
    const r = await s.kubectl(['label', 'namespace', 'psa-warn', 'pod-security.kubernetes.io/audit=strict']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'The Namespace "psa-warn" is invalid: metadata.labels[pod-security.kubernetes.io/audit]: ' +
      'Invalid value: "strict": must be one of privileged, baseline, restricted\n');
  });

  it('the server stays healthy', async () => {
    assert.equal((await s.request({ method: 'GET', path: '/readyz' })).status, 200);
  });
});
