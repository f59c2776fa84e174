import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from '../v1/types.ts';
import { ephemeralContainerDiff, goPodSpecText, podSpecDiff } from './go-pod-spec.ts';

const spec = (c: Record<string, unknown>, extra: Record<string, unknown> = {}): PodSpec => ({ containers: [{ name: 'c', image: 'i', ...c }], ...extra }) as PodSpec;

describe('the internal PodSpec as kube diffs it', () => {
  const cases: { name: string; prev: PodSpec; next: PodSpec; want: string }[] = [
    {
      name: 'Go field names, zero values, one-space indent',
      prev: spec({}), next: spec({ args: ['x'] }),
      want: '@@ -6,7 +6,9 @@\n    "Name": "c",\n    "Image": "i",\n    "Command": null,\n-   "Args": null,\n+   "Args": [\n+    "x"\n+   ],\n' +
        '    "WorkingDir": "",\n    "Ports": null,\n    "EnvFrom": null,\n',
    },
    {
      name: 'quantities in their canonical form, Go escaping',
      prev: spec({ resources: { limits: { cpu: '0.5' } } }), next: spec({ resources: { limits: { cpu: '1' } }, env: [{ name: 'A', value: '<&>' }] }),
      want: '@@ -10,10 +10,16 @@\n    "WorkingDir": "",\n    "Ports": null,\n    "EnvFrom": null,\n-   "Env": null,\n+   "Env": [\n+    {\n+     "Name": "A",\n' +
        '+     "Value": "\\u003c\\u0026\\u003e",\n+     "ValueFrom": null\n+    }\n+   ],\n    "Resources": {\n     "Limits": {\n-     "cpu": "500m"\n+     "cpu": "1"\n' +
        '     },\n     "Requests": null,\n     "Claims": null\n',
    },
  ];
  for (const c of cases) it(c.name, () => { assert.equal(podSpecDiff(c.prev, c.next), c.want); });

  it('moves the host namespace switches into an always present security context', () => {
    const text = goPodSpecText(spec({}, { hostPID: true }));
    assert.match(text, /"SecurityContext": \{\n {2}"HostNetwork": false,\n {2}"HostPID": true,/);
  });

  it('inlines an ephemeral container\'s common fields before its target', () => {
    const d = ephemeralContainerDiff({ name: 'e', image: 'a' }, { name: 'e', image: 'b', targetContainerName: 'c' });
    assert.match(d, /^@@ -1,6 \+1,6 @@\n \{\n  "Name": "e",\n- "Image": "a",\n\+ "Image": "b",/);
    assert.match(d, /- "TargetContainerName": ""\n\+ "TargetContainerName": "c"\n/);
  });
});
