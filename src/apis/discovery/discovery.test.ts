import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { endpointSlices } from './endpointslice/endpointslice.ts';
import type { EndpointSlice } from './v1/types.ts';

const ctx = systemContext('default');
const eps = (extra: Partial<EndpointSlice>): EndpointSlice => ({ metadata: { name: 'web-abc', namespace: 'default' }, addressType: 'IPv4', ...extra });

describe('endpointslices', () => {
  const cases: { name: string; obj: EndpointSlice; want: string[] }[] = [
    { name: 'valid', obj: eps({ endpoints: [{ addresses: ['10.0.0.1'], hostname: 'web-0' }], ports: [{ name: 'http', protocol: 'TCP', port: 80 }] }), want: [] },
    { name: 'addressType required', obj: eps({ addressType: '' }), want: ['addressType: Required value'] },
    { name: 'addressType enum', obj: eps({ addressType: 'IP' }), want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'] },
    { name: 'addresses', obj: eps({ endpoints: [{}, { addresses: ['fd00::1', '127.0.0.1'] }] }),
      want: ['endpoints[0].addresses: Required value: must contain at least 1 address',
        // kube reports the family mismatch on the list, then the special-IP checks on the item
        'endpoints[1].addresses: Invalid value: "fd00::1": must be an IPv4 address',
        'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'] },
    { name: 'IPv4 address unparsable', obj: eps({ endpoints: [{ addresses: ['bogus'] }] }),
      want: ['endpoints[0].addresses[0]: Invalid value: "bogus": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'] },
    { name: 'IPv4 address with leading zeros (strict IP validation)', obj: eps({ endpoints: [{ addresses: ['10.0.0.01'] }] }),
      want: ['endpoints[0].addresses[0]: Invalid value: "10.0.0.01": must not have leading 0s'] },
    { name: 'IPv6 address an IPv4 one', obj: eps({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1'] }] }),
      want: ['endpoints[0].addresses: Invalid value: "10.0.0.1": must be an IPv6 address'] },
    { name: 'IPv6 address not canonical', obj: eps({ addressType: 'IPv6', endpoints: [{ addresses: ['FD00::1'] }] }),
      want: ['endpoints[0].addresses[0]: Invalid value: "FD00::1": must be in canonical form ("fd00::1")'] },
    { name: 'nodeName not a DNS subdomain', obj: eps({ endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'Bad_Node' }] }),
      want: ["endpoints[0].nodeName: Invalid value: \"Bad_Node\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"] },
    { name: 'zone hint not a label value, and repeated', obj: eps({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'bad zone' }] } }] }),
      want: ['endpoints[0].hints.forZones[1].name: Duplicate value: "a"',
        "endpoints[0].hints.forZones[2].name: Invalid value: \"bad zone\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"] },
    { name: 'too many node hints', obj: eps({ endpoints: [{ addresses: ['10.0.0.1'], hints: { forNodes: Array.from({ length: 9 }, (_, i) => ({ name: `n${i}` })) } }] }),
      want: ['endpoints[0].hints.forNodes: Too many: 9: must have at most 8 items'] },
    { name: 'fqdn', obj: eps({ addressType: 'FQDN', endpoints: [{ addresses: ['example.com.', 'localhost'] }] }),
      want: ['endpoints[0].addresses[1]: Invalid value: "localhost": should be a domain with at least two segments separated by dots'] },
    { name: 'ports', obj: eps({ ports: [{ name: 'a', protocol: 'TCP' }, { name: 'a', protocol: 'ICMP' }, { name: 'b' }] }),
      want: ['ports[1].name: Duplicate value: "a"', 'ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"', 'ports[2].protocol: Required value'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(endpointSlices.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('v1 writes drop deprecatedTopology, keeping a node name the old slice recorded', () => {
    const old = eps({ endpoints: [{ addresses: ['10.0.0.1'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-a' } }] });
    const created = eps({ endpoints: [{ addresses: ['10.0.0.1'], deprecatedTopology: { 'bad key': 'v' } }] });
    endpointSlices.strategy.prepareForCreate(ctx, created);
    assert.deepEqual(created.endpoints, [{ addresses: ['10.0.0.1'] }]);
    const next = eps({ endpoints: [{ addresses: ['10.0.0.2'], deprecatedTopology: { 'kubernetes.io/hostname': 'node-a' } }] });
    endpointSlices.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.endpoints, [{ addresses: ['10.0.0.2'], nodeName: 'node-a' }]);
  });

  const updates: { name: string; obj: EndpointSlice; old: EndpointSlice; want: string[] }[] = [
    { name: 'the old "IP" type is refused on update too', obj: eps({ addressType: 'IP' }), old: eps({}),
      want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"', 'addressType: Invalid value: "IP": field is immutable'] },
    { name: 'unchanged endpoints are not re-validated', obj: eps({ endpoints: [{ addresses: ['10.0.0.01'] }] }),
      old: eps({ endpoints: [{ addresses: ['10.0.0.01'] }] }), want: [] },
    { name: 'changed endpoints are validated', obj: eps({ endpoints: [{ addresses: ['10.0.0.01'] }] }), old: eps({}),
      want: ['endpoints[0].addresses[0]: Invalid value: "10.0.0.01": must not have leading 0s'] },
    { name: '101 ports are fine (the limit is 20000)', obj: eps({ ports: Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, protocol: 'TCP', port: 80 })) }), old: eps({}), want: [] },
  ];
  for (const c of updates) it(`update: ${c.name}`, () => assert.deepEqual(endpointSlices.strategy.validateUpdate(ctx, c.obj, c.old).map(formatFieldError), c.want));

  it('addressType is immutable', () => {
    assert.deepEqual(endpointSlices.strategy.validateUpdate(ctx, eps({ addressType: 'IPv6' }), eps({})).map(formatFieldError),
      ['addressType: Invalid value: "IPv6": field is immutable']);
  });
  it('defaults port name and protocol', () => {
    const e = eps({ ports: [{ port: 80 }] });
    endpointSlices.defaults(e);
    assert.deepEqual(e.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
  });
  it('generation: 1 on create, bumped on content change only', () => {
    const e = eps({});
    endpointSlices.strategy.prepareForCreate(ctx, e);
    assert.equal(e.metadata.generation, 1);
    const same = eps({ metadata: { name: 'web-abc', namespace: 'default', generation: 1, labels: { a: 'b' } } });
    endpointSlices.strategy.prepareForUpdate(ctx, same, e);
    assert.equal(same.metadata.generation, 1);
    const changed = eps({ metadata: { name: 'web-abc', namespace: 'default', generation: 1 }, endpoints: [{ addresses: ['10.0.0.2'] }] });
    endpointSlices.strategy.prepareForUpdate(ctx, changed, e);
    assert.equal(changed.metadata.generation, 2);
  });
  it('table: NAME ADDRESSTYPE PORTS ENDPOINTS AGE', () => {
    const e = eps({ metadata: { name: 'web-abc', creationTimestamp: '2024-01-01T00:00:00Z' },
      ports: [{ port: 80 }, { name: 'dns' }, {}, { port: 9 }], endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }] });
    assert.deepEqual(endpointSlices.table.map((c) => c.cell(e, Date.parse('2024-01-01T00:00:30Z'))),
      ['web-abc', 'IPv4', '80,dns,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '30s']);
    assert.deepEqual(endpointSlices.table.map((c) => c.cell(eps({}), 0)).slice(2, 4), ['<unset>', '<unset>']);
  });
});
