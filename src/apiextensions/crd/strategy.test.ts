import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { crdStrategy } from './strategy.ts';

const crd = (): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.x.io' },
  spec: {
    group: 'x.io', scope: 'Namespaced', names: { plural: 'foos', kind: 'Foo' },
    versions: [{ name: 'v1', served: true, storage: true }],
  },
  status: { conditions: [{ type: 'Established', status: 'True' }], storedVersions: ['v0'] },
});

describe('crdStrategy', () => {
  it('create resets status as kube does: conditions null (not omitted), no accepted names, the storage version', () => {
    const c = crd();
    crdStrategy.prepareForCreate(systemContext(), c);
    assert.deepEqual(c.status, { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    assert.equal(JSON.stringify(c.status), '{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}');
    assert.equal(c.metadata.generation, 1);
  });
});
