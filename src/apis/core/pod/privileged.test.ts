// --allow-privileged (capabilities.AllowPrivileged): kube-apiserver refuses privileged containers
// and Windows hostProcess pods unless the flag is set.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { podSecurityPolicy } from './security-context.ts';
import { podCaseCauses } from './testing.ts';

const privileged = { name: 'privileged', container: { securityContext: { privileged: true } }, want: [] };

describe('--allow-privileged', () => {
  after(() => { podSecurityPolicy.allowPrivileged = false; });
  it('refuses a privileged container by default', () => {
    assert.deepEqual(podCaseCauses(privileged),
      ['spec.containers[0].securityContext.privileged|FieldValueForbidden|Forbidden: disallowed by cluster policy']);
  });
  it('accepts it when allowed', () => {
    podSecurityPolicy.allowPrivileged = true;
    assert.deepEqual(podCaseCauses(privileged), []);
  });
});
