import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deprecationWarning } from './deprecation.ts';

describe('deprecationWarning', () => {
  const cases = [
    { name: 'deprecated only', gv: { group: '', version: 'v1' }, kind: 'ComponentStatus',
      lifecycle: { deprecated: [1, 19] as const }, want: 'v1 ComponentStatus is deprecated in v1.19+' },
    { name: 'with a replacement', gv: { group: '', version: 'v1' }, kind: 'Endpoints',
      lifecycle: { deprecated: [1, 33] as const, replacement: { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' } },
      want: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice' },
    { name: 'with a removal', gv: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3' }, kind: 'FlowSchema',
      lifecycle: { deprecated: [1, 29] as const, removed: [1, 32] as const, replacement: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema' } },
      want: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(deprecationWarning(c.gv, c.kind, c.lifecycle), c.want));
});
