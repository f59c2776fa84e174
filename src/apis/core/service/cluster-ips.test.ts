// Expected answers are kube-apiserver v1.36.3's (asked through src/e2e/testing/oracle.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import type { Service } from '../v1/types.ts';
import { initIPFamilyFields, normalizeClusterIPs, validateUpgradeDowngrade } from './cluster-ips.ts';

function svc(spec: Service['spec']): Service {
  return { metadata: { name: 's' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }], ...spec } };
}

describe('normalizeClusterIPs', () => {
  const cases: { name: string; old?: Service['spec']; spec: Service['spec']; want: readonly string[] | undefined }[] = [
    { name: 'create: clusterIP alone fills clusterIPs', spec: { clusterIP: '10.0.0.5' }, want: ['10.0.0.5'] },
    { name: 'create: neither is set', spec: {}, want: undefined },
    { name: 'update: a changed clusterIP with unchanged clusterIPs carries into clusterIPs[0]',
      old: { clusterIP: 'None', clusterIPs: ['None'] }, spec: { clusterIP: '10.0.0.12', clusterIPs: ['None'] }, want: ['10.0.0.12'] },
    { name: 'update: clusterIPs omitted, clusterIP unchanged: the stored clusterIPs stay',
      old: { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }, spec: { clusterIP: '10.0.0.5' }, want: ['10.0.0.5'] },
    { name: 'update: clusterIP cleared with unchanged clusterIPs clears both',
      old: { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }, spec: { clusterIP: '', clusterIPs: ['10.0.0.5'] }, want: undefined },
    { name: 'update: both changed are left for validation',
      old: { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }, spec: { clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.7'] }, want: ['10.0.0.7'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = svc(c.spec);
      normalizeClusterIPs(s, c.old === undefined ? undefined : svc(c.old));
      assert.deepEqual(s.spec.clusterIPs, c.want);
    });
  }
});

describe('initIPFamilyFields on a single-stack IPv4 cluster', () => {
  const cases: { name: string; old?: Service['spec']; spec: Service['spec']; want?: Pick<Service['spec'], 'ipFamilies' | 'ipFamilyPolicy'>; error?: string }[] = [
    { name: 'a service with a selector is SingleStack IPv4', spec: { selector: { a: 'b' } }, want: { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] } },
    { name: 'headless without selector is RequireDualStack with both families', spec: { clusterIP: 'None', clusterIPs: ['None'] },
      want: { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] } },
    { name: 'headless without selector and SingleStack keeps one family', spec: { clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack' },
      want: { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] } },
    { name: 'an update adopts the stored policy', old: { clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'], selector: { a: 'b' } },
      spec: { clusterIP: 'None', clusterIPs: ['None'], selector: { a: 'b' } }, want: { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] } },
    { name: 'RequireDualStack with a selector', spec: { selector: { a: 'b' }, ipFamilyPolicy: 'RequireDualStack' },
      error: 'Service "s" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services' },
    { name: 'an IPv6 family', spec: { selector: { a: 'b' }, ipFamilies: ['IPv6'] },
      error: 'Service "s" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster' },
    { name: 'an IPv6 address', spec: { selector: { a: 'b' }, clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] },
      error: 'Service "s" is invalid: spec.clusterIPs[0]: Invalid value: ["fd00::5"]: IPv6 is not configured on this cluster' },
    { name: 'clusterIPs without clusterIP', spec: { selector: { a: 'b' }, clusterIPs: ['10.0.0.5'] },
      error: 'Service "s" is invalid: spec.clusterIPs: Invalid value: ["10.0.0.5"]: must be empty when `clusterIP` is not specified' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = svc(c.spec);
      const run = (): void => initIPFamilyFields(s, c.old === undefined ? undefined : svc(c.old), ['IPv4']);
      if (c.error !== undefined) {
        assert.throws(run, (err: unknown) => err instanceof StatusError && err.status.code === 422 && err.message === c.error);
        return;
      }
      run();
      assert.deepEqual({ ipFamilyPolicy: s.spec.ipFamilyPolicy, ipFamilies: s.spec.ipFamilies }, c.want);
    });
  }
});

describe('validateUpgradeDowngrade', () => {
  const stored: Service['spec'] = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' };
  const cases: { name: string; old: Service['spec']; spec: Service['spec']; want: string[] }[] = [
    { name: 'headless to an address: the primary may not change', old: { clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'] },
      spec: { clusterIP: '10.0.0.12', clusterIPs: ['10.0.0.12'], ipFamilies: ['IPv4'] },
      want: ['spec.clusterIPs[0]: Invalid value: ["10.0.0.12"]: may not change once set'] },
    { name: 'an address to headless', old: stored, spec: { ...stored, clusterIP: 'None', clusterIPs: ['None'] },
      want: ['spec.clusterIPs[0]: Invalid value: ["None"]: may not change once set'] },
    { name: 'unchanged', old: stored, spec: stored, want: [] },
    { name: 'to ExternalName', old: stored, spec: { type: 'ExternalName', externalName: 'x.example.com' }, want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(validateUpgradeDowngrade(svc(c.spec), svc(c.old)).map(formatFieldError), c.want);
    });
  }
});
