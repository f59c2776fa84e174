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
    { type: 'External', external: { metric: { name: 'queue', selector: sel }, target: { type: 'Value', value: '5' } } },
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
    // encoding/json: a value of another type fails the whole Unmarshal, and kube ignores the annotation
    { name: 'a non-object entry fails the whole list', in: [1, { type: 'Resource' }], want: undefined },
    { name: 'a null entry is the zero value', in: [null, { type: 'Resource' }], want: [{ type: '' }, { type: 'Resource' }] },
    { name: 'an entry with a field of another type fails the whole list', in: [{ type: 'Resource', resource: { name: 5 } }, { type: 'External' }], want: undefined },
    { name: 'a selector of another type fails the whole list', in: [{ type: 'Pods', pods: { metricName: 'm', selector: { matchLabels: { a: 1 } } } }], want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(metricSpecsV1(c.in), c.want));
  }

  // Quantity.UnmarshalJSON fails json.Unmarshal, and the conversion then ignores the annotation.
  const quantities = [
    { name: 'a malformed quantity fails the whole list', in: [{ type: 'Resource', resource: { name: 'cpu', targetAverageValue: '1' } },
      { type: 'Pods', pods: { metricName: 'm', targetAverageValue: 'bogus' } }], want: undefined },
    { name: 'an unknown suffix fails the whole list', in: [{ type: 'External', external: { metricName: 'q', targetValue: '1x' } }], want: undefined },
    { name: 'a quantity of another JSON type fails the whole list', in: [{ type: 'Resource', resource: { name: 'cpu', targetAverageValue: true } }], want: undefined },
    { name: 'quantities marshal back canonically', in: [{ type: 'Resource', resource: { name: 'cpu', targetAverageValue: '1.5' } },
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '1E3' } }],
    want: [{ type: 'Resource', resource: { name: 'cpu', targetAverageValue: '1500m' } }, { type: 'Resource', resource: { name: 'memory', targetAverageValue: '1E3' } }] },
  ];
  for (const c of quantities) {
    it(c.name, () => assert.deepEqual(metricSpecsV1(c.in), c.want));
  }
  it('a malformed quantity fails the statuses too', () => {
    assert.equal(metricStatusesV1([{ type: 'Resource', resource: { name: 'cpu', currentAverageValue: 'x' } }]), undefined);
  });
});
