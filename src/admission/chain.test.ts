// AdmissionChain: plugins run in order, and a plugin naming its resources is skipped for the others.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemContext } from '../apimachinery/request/context.ts';
import { AdmissionChain, onResources, type Attributes, type Plugin } from './interfaces.ts';

const attrsFor = (group: string, resource: string): Attributes => ({
  operation: 'CREATE', kind: { group, version: 'v1', kind: 'X' }, resource: { group, version: 'v1', resource },
  subresource: '', name: 'x', namespace: 'ns', object: { metadata: { name: 'x' } }, oldObject: undefined, dryRun: false,
});

describe('AdmissionChain', () => {
  const calls: string[] = [];
  const plugin = (name: string, resources?: ReadonlySet<string>): Plugin => ({
    name, handles: () => true, ...(resources === undefined ? {} : { resources }),
    admit: () => { calls.push(`${name}.admit`); return Promise.resolve(); },
    validate: () => { calls.push(`${name}.validate`); return Promise.resolve(); },
  });
  const chain = new AdmissionChain([plugin('pods-only', onResources('/pods')), plugin('all'), plugin('ingresses', onResources('networking.k8s.io/ingresses'))]);

  const cases: { name: string; group: string; resource: string; want: string[] }[] = [
    { name: 'a pod reaches the pod plugin and the one for every resource', group: '', resource: 'pods', want: ['pods-only', 'all'] },
    { name: 'a ConfigMap skips the plugins of other resources', group: '', resource: 'configmaps', want: ['all'] },
    { name: 'the group is part of the key', group: 'networking.k8s.io', resource: 'ingresses', want: ['all', 'ingresses'] },
    { name: 'same resource name in another group is another resource', group: 'example.com', resource: 'pods', want: ['all'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      calls.length = 0;
      await chain.admit(systemContext('ns'), attrsFor(c.group, c.resource));
      await chain.validate(systemContext('ns'), attrsFor(c.group, c.resource));
      assert.deepEqual(calls, [...c.want.map((n) => `${n}.admit`), ...c.want.map((n) => `${n}.validate`)]);
    });
  }
});
