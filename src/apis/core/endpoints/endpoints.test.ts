// kube v1.36's ValidateEndpoints rules that kapi lacked (pkg/apis/core/validation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { Endpoints } from '../v1/types.ts';
import { validateEndpoints } from './endpoints.ts';

const ep = (ip: string): Endpoints => ({ metadata: { name: 'web', namespace: 'default' }, subsets: [{ addresses: [{ ip }], ports: [{ port: 80, protocol: 'TCP' }] }] });

describe('endpoints validation: kube rules', () => {
  const cases: { name: string; obj: Endpoints; old?: Endpoints; want: string[] }[] = [
    { name: 'valid', obj: ep('10.1.2.3'), want: [] },
    // IsValidIPForLegacyField and ValidateEndpointIP both run, so kube reports an unparsable IP twice
    { name: 'IP unparsable', obj: ep('bogus'),
      want: ['subsets[0].addresses[0].ip: Invalid value: "bogus": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'subsets[0].addresses[0].ip: Invalid value: "bogus": must be a valid IP address'] },
    { name: 'IP with leading zeros (strict IP validation)', obj: ep('10.1.2.03'),
      want: ['subsets[0].addresses[0].ip: Invalid value: "10.1.2.03": must not have leading 0s'] },
    { name: 'IP loopback', obj: ep('127.0.0.1'),
      want: ['subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'] },
    { name: 'update keeping invalid subsets as they were', obj: ep('10.1.2.03'), old: ep('10.1.2.03'), want: [] },
    { name: 'update changing subsets to invalid ones', obj: ep('10.1.2.03'), old: ep('10.1.2.3'),
      want: ['subsets[0].addresses[0].ip: Invalid value: "10.1.2.03": must not have leading 0s'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateEndpoints(c.obj, c.old).map(formatFieldError), c.want));
});
