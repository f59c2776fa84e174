import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metricSpecsV1, metricStatusesV1 } from './decode.ts';
import { metricSpecToV1, metricStatusToV1 } from './metrics.ts';
import type { MetricSpec, MetricStatus } from '../v2/types.ts';

const sel = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] };

describe('v1 metric annotations decode', () => {
  const specs: MetricSpec[] = [
    { type: 'Object', object: { describedObject: { kind: 'Service', name: 's', apiVersion: 'v1' }, metric: { name: 'rps', selector: sel }, target: { type: 'Value', value: '10' } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
    { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } } },
    { type: 'External', external: { metric: { name: 'queue', selector: sel }, target: { type: 'Value', value: 5 } } },
  ];
  it('what the conversion writes reads back the same', () => {
    const written = specs.map(metricSpecToV1);
    assert.deepEqual(metricSpecsV1(JSON.parse(JSON.stringify(written)) as unknown[]), written);
    const statuses: MetricStatus[] = [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 10 } } },
      { type: 'External', external: { metric: { name: 'q' }, current: { value: '3' } } }];
    const st = statuses.map(metricStatusToV1);
    assert.deepEqual(metricStatusesV1(JSON.parse(JSON.stringify(st)) as unknown[]), st);
  });

  const cases = [
    { name: 'null fields count as absent', in: [{ type: 'Pods', pods: { metricName: 'm', selector: null, targetAverageValue: null } }],
      want: [{ type: 'Pods', pods: { metricName: 'm', targetAverageValue: '0' } }] },
    { name: 'missing required fields take the zero value', in: [{ resource: {} }], want: [{ type: '', resource: { name: '' } }] },
    { name: 'non-objects are skipped', in: [1, null, 'x', [], { type: 'Resource' }], want: [{ type: 'Resource' }] },
    { name: 'an entry with a field of another type is skipped', in: [{ type: 'Resource', resource: { name: 5 } }, { type: 7 },
      { type: 'Pods', pods: { metricName: 'm', selector: { matchLabels: { a: 1 } } } }, { type: 'External' }], want: [{ type: 'External' }] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(metricSpecsV1(c.in), c.want));
  }
});
