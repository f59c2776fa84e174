// MutatingAdmissionPolicy's expressions compiled at create, as kube-apiserver v1.36.3 answers them
// (field, bad value and detail of each cause, read from its 422 responses).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionPolicy } from '../v1/types.ts';
import { validatePolicy } from './validation.ts';

const RULES = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' };
const policy = (spec: NonNullable<AdmissionPolicy['spec']>): AdmissionPolicy =>
  ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'p' },
    spec: { failurePolicy: 'Fail', reinvocationPolicy: 'Never', matchConstraints: RULES, ...spec } } as AdmissionPolicy);
const ac = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jp = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
const caret = (expr: string, col: number): string => ` | ${expr}\n | ${'.'.repeat(col - 1)}^`;

describe('MutatingAdmissionPolicy expressions compiled at create (validateMutatingAdmissionPolicySpec)', () => {
  const cases: { name: string; spec: NonNullable<AdmissionPolicy['spec']>; want: { field: string; badValue: unknown; detail: string }[] }[] = [
    { name: 'a valid apply configuration and JSON patch', spec: { mutations: [ac('Object{metadata: Object.metadata{labels: {"a": "b"}}}'), jp('[JSONPatch{op: "add", path: "/data/x", value: "y"}]')] }, want: [] },
    { name: 'an undeclared reference', spec: { mutations: [ac('Object{data: nope}')] },
      want: [{ field: 'spec.mutations[0].applyConfiguration.expression', badValue: 'Object{data: nope}',
        detail: `compilation failed: ERROR: <input>:1:14: undeclared reference to 'nope' (in container '')\n${caret('Object{data: nope}', 14)}` }] },
    { name: 'an apply configuration that is not an Object', spec: { mutations: [ac('object')] },
      want: [{ field: 'spec.mutations[0].applyConfiguration.expression', badValue: 'object', detail: 'must evaluate to Object but got dyn' }] },
    { name: 'an apply configuration of a field type', spec: { mutations: [ac('Object.spec{}')] },
      want: [{ field: 'spec.mutations[0].applyConfiguration.expression', badValue: 'Object.spec{}', detail: 'must evaluate to Object but got Object.spec' }] },
    { name: 'a JSON patch that is not a list of JSONPatch', spec: { mutations: [jp('[1]')] },
      want: [{ field: 'spec.mutations[0].jsonPatch.expression', badValue: '[1]', detail: 'must evaluate to list(JSONPatch) but got list(int)' }] },
    { name: 'a JSONPatch field of the wrong type', spec: { mutations: [jp('[JSONPatch{op: 1, path: "/x"}]')] },
      want: [{ field: 'spec.mutations[0].jsonPatch.expression', badValue: '[JSONPatch{op: 1, path: "/x"}]',
        detail: `compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n${caret('[JSONPatch{op: 1, path: "/x"}]', 14)}` }] },
    { name: 'a variable may not construct objects', spec: { variables: [{ name: 'v', expression: 'Object{}' }], mutations: [ac('Object{}')] },
      want: [{ field: 'spec.variables[0].expression', badValue: 'Object{}',
        detail: `compilation failed: ERROR: <input>:1:7: undeclared reference to 'Object' (in container '')\n${caret('Object{}', 7)}` }] },
    { name: 'mutations see the variables with their types', spec: { variables: [{ name: 'n', expression: '1' }], mutations: [ac('Object{data: {"a": variables.n.size()}}')] },
      want: [{ field: 'spec.mutations[0].applyConfiguration.expression', badValue: 'Object{data: {"a": variables.n.size()}}',
        detail: `compilation failed: ERROR: <input>:1:36: found no matching overload for 'size' applied to 'int.()'\n${caret('Object{data: {"a": variables.n.size()}}', 36)}` }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validatePolicy('Mutating', policy(c.spec), { ignoreMatchConditions: false });
      assert.deepEqual(errs.map((e) => ({ field: e.field, badValue: e.badValue, detail: e.detail })), c.want);
    });
  }
});
