import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { identityLeaseName } from './identity-lease.ts';

describe('identityLeaseName', () => {
  it('is the name kube-apiserver v1.36 gives its Lease on a host named "vm" (asked of the oracle)', () => {
    assert.equal(identityLeaseName('vm'), 'apiserver-wlv32tlttr4jl3gtroqexyxapa');
  });
});
