import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compressUsername } from './auth-metrics.ts';

describe('compressUsername', () => {
  // kube keeps a few well-known names and folds the rest, so that the label set stays small.
  const cases: [string, string][] = [
    ['admin', 'admin'], ['client', 'client'], ['kube_proxy', 'kube_proxy'], ['kubelet', 'kubelet'],
    ['system:serviceaccount:kube-system:default', 'system:serviceaccount:kube-system:default'],
    ['alice@example.com', 'email_id'], ['system:serviceaccount:default:default', 'other'], ['system:anonymous', 'other'], ['', 'other'],
  ];
  for (const [name, want] of cases) it(`${JSON.stringify(name)} → ${want}`, () => assert.equal(compressUsername(name), want));
});
