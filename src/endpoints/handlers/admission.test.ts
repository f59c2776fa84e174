import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemContext } from '../../apimachinery/request/context.ts';
import { connectOptions, deleteOptions, writeOptions } from './admission.ts';
import type { ResourceEndpoint } from './scope.ts';

describe('admission options', () => {
  const cases: { name: string; kind: 'CreateOptions' | 'UpdateOptions'; query: string; want: object }[] = [
    { name: 'none', kind: 'CreateOptions', query: '', want: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' } },
    { name: 'all', kind: 'UpdateOptions', query: 'dryRun=All&fieldManager=m&fieldValidation=Strict&force=true', want: {
      kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'm', fieldValidation: 'Strict' } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(writeOptions(c.kind, new URLSearchParams(c.query)), c.want));

  it('DeleteOptions are typed as meta.k8s.io/v1', () => {
    assert.deepEqual(deleteOptions({ propagationPolicy: 'Background' }), { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
  });
});

describe('connect options', () => {
  const ep = (kind: string): ResourceEndpoint => ({ kind, kindGroupVersion: { group: '', version: 'v1' } }) as ResourceEndpoint;
  const ctx = (parts: string[], path = ''): ReturnType<typeof systemContext> => ({ ...systemContext('ns'), info: { ...systemContext('ns').info, parts, path } });
  const cases: { name: string; kind: string; query: string; parts?: string[]; path?: string; want: object }[] = [
    { name: 'exec', kind: 'PodExecOptions', query: 'command=ls&command=%2F&container=c&stdout=true&stderr=1&tty=false', want: {
      kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, stderr: true, container: 'c', command: ['ls', '/'] } },
    { name: 'attach', kind: 'PodAttachOptions', query: 'stdin=true&command=x', want: { kind: 'PodAttachOptions', apiVersion: 'v1', stdin: true } },
    { name: 'portforward', kind: 'PodPortForwardOptions', query: 'ports=80,443&ports=8080', want: { kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [80, 443, 8080] } },
    { name: 'proxy with a path', kind: 'PodProxyOptions', query: '', parts: ['pods', 'p', 'proxy', 'a', 'b'], path: '/api/v1/namespaces/ns/pods/p/proxy/a/b/',
      want: { kind: 'PodProxyOptions', apiVersion: 'v1', path: '/a/b/' } },
    { name: 'proxy without a path', kind: 'ServiceProxyOptions', query: '', parts: ['services', 's', 'proxy'], want: { kind: 'ServiceProxyOptions', apiVersion: 'v1' } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(connectOptions(ep(c.kind), ctx(c.parts ?? [], c.path), new URLSearchParams(c.query)), c.want));
  }
});
