import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { validateAPIService, validateAPIServiceStatus, type APIService } from './apiservice.ts';

const svc = (name: string, spec: Partial<APIService['spec']>): APIService => ({
  apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name },
  spec: { groupPriorityMinimum: 1000, versionPriority: 15, ...spec },
});

describe('APIService validation', () => {
  const cases: { name: string; obj: APIService; want: string[] }[] = [
    { name: 'local core', obj: svc('v1.', { group: '', version: 'v1' }), want: [] },
    { name: 'aggregated', obj: svc('v1beta1.metrics.k8s.io', { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server', port: 443 } }), want: [] },
    { name: 'name is not version.group', obj: svc('foo.bar', { group: 'bar', version: 'v1' }),
      want: ['metadata.name: Invalid value: "foo.bar": must be `spec.version+"."+spec.group`: "v1.bar"'] },
    { name: 'priorities out of range', obj: svc('v1.x.io', { group: 'x.io', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001 }),
      want: ['spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000'] },
    { name: 'service needs namespace and name', obj: svc('v1.x.io', { group: 'x.io', version: 'v1', service: {} }),
      want: ['spec.service.namespace: Required value', 'spec.service.name: Required value'] },
    { name: 'local with a CA bundle', obj: svc('v1.x.io', { group: 'x.io', version: 'v1', caBundle: 'abc' }),
      want: ['spec.caBundle: Invalid value: "abc": local APIServices may not have a caBundle'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateAPIService(c.obj).map(formatFieldError), c.want));
});

describe('APIService status update (ValidateAPIServiceStatus)', () => {
  const SUPPORTED = 'supported values: "True", "False", "Unknown"';
  const withConditions = (...statuses: (string | undefined)[]): APIService => ({
    ...svc('v1.x.io', { group: 'x.io', version: 'v1' }),
    status: { conditions: statuses.map((s) => ({ type: 'Available', ...(s === undefined ? {} : { status: s }) }) as { type: string; status: string }) },
  });
  const cases: { name: string; obj: APIService; want: string[] }[] = [
    { name: 'no status', obj: svc('v1.x.io', { group: 'x.io', version: 'v1' }), want: [] },
    { name: 'True, False and Unknown', obj: withConditions('True', 'False', 'Unknown'), want: [] },
    { name: 'an unknown status, by index', obj: withConditions('True', 'Bogus'), want: [`status.conditions[1].status: Unsupported value: "Bogus": ${SUPPORTED}`] },
    { name: 'statuses are case-sensitive', obj: withConditions('true'), want: [`status.conditions[0].status: Unsupported value: "true": ${SUPPORTED}`] },
    { name: 'an empty status', obj: withConditions(''), want: [`status.conditions[0].status: Unsupported value: "": ${SUPPORTED}`] },
    { name: 'a missing status is Go\'s empty string', obj: withConditions(undefined), want: [`status.conditions[0].status: Unsupported value: "": ${SUPPORTED}`] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateAPIServiceStatus(c.obj).map(formatFieldError), c.want));
});
