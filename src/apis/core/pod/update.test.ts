// ValidatePodUpdate, one case per rule; the expected causes are kube-apiserver v1.36.3's answers to
// the same update (e2e/pod-validation.test.ts sends them to both servers).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorBody } from '../../../apimachinery/errors/field-errors.ts';
import type { Pod } from '../v1/types.ts';
import { defaultPod } from './defaults.ts';
import { validateEphemeralContainersUpdate } from './subresources/ephemeral-containers.ts';
import { validatePodUpdate } from './update.ts';

type Mutable = { metadata: Record<string, unknown>; spec: Record<string, unknown> & { containers: Record<string, unknown>[] } };

interface UpdateCase {
  readonly name: string;
  readonly base?: Record<string, unknown>;
  readonly mutate: (pod: Mutable) => void;
  readonly want: readonly string[];
  /** Sent to pods/ephemeralcontainers (ValidatePodEphemeralContainersUpdate). */
  readonly ephemeral?: true;
}

const FORBIDDEN_CHANGE = 'spec|FieldValueForbidden|Forbidden: pod updates may not change fields other than `spec.containers[*].image`,' +
  '`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';
const MIRROR = 'metadata.annotations[kubernetes.io/config.mirror]';
const gated = { schedulingGates: [{ name: 'example.com/a' }] };
const TERMS = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
const term = (v: string): { matchExpressions: Record<string, unknown>[] } => ({ matchExpressions: [{ key: 'k', operator: 'In', values: [v] }] });
const required = (terms: readonly Record<string, unknown>[]): Record<string, unknown> =>
  ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } });

const cases: readonly UpdateCase[] = [
  { name: 'image change is allowed', mutate: (p) => { p.spec.containers[0]!['image'] = 'busybox:2'; }, want: [] },
  { name: 'image emptied (reported by the spec and by the update checks)', mutate: (p) => { p.spec.containers[0]!['image'] = ''; },
    want: ['spec.containers[0].image|FieldValueRequired|Required value', 'spec.containers[0].image|FieldValueRequired|Required value'] },
  { name: 'container added', mutate: (p) => { p.spec.containers.push({ name: 'd', image: 'i', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }); },
    want: ['spec.containers|FieldValueForbidden|Forbidden: pod updates may not add or remove containers'] },
  { name: 'args changed', mutate: (p) => { p.spec.containers[0]!['args'] = ['x']; }, want: [FORBIDDEN_CHANGE] },
  { name: 'activeDeadlineSeconds raised', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { p.spec['activeDeadlineSeconds'] = 20; },
    want: ['spec.activeDeadlineSeconds|FieldValueInvalid|Invalid value: 20: must be less than or equal to previous value'] },
  { name: 'activeDeadlineSeconds removed', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { delete p.spec['activeDeadlineSeconds']; },
    want: ['spec.activeDeadlineSeconds|FieldValueInvalid|Invalid value: null: must not update from a positive integer to nil value'] },
  { name: 'activeDeadlineSeconds lowered', base: { activeDeadlineSeconds: 10 }, mutate: (p) => { p.spec['activeDeadlineSeconds'] = 5; }, want: [] },
  { name: 'toleration added', mutate: (p) => { p.spec['tolerations'] = [{ key: 'k', operator: 'Exists' }]; }, want: [] },
  { name: 'toleration seconds changed', base: { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] },
    mutate: (p) => { p.spec['tolerations'] = [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }]; }, want: [] },
  { name: 'toleration changed', base: { tolerations: [{ key: 'k', operator: 'Exists' }] }, mutate: (p) => { p.spec['tolerations'] = [{ key: 'j', operator: 'Exists' }]; },
    want: ['spec.tolerations|FieldValueForbidden|Forbidden: existing toleration can not be modified except its tolerationSeconds'] },
  { name: 'invalid toleration added (reported twice)', mutate: (p) => { p.spec['tolerations'] = [{ key: 'k', operator: 'Bogus' }]; },
    want: ['spec.tolerations[0].operator|FieldValueNotSupported|Unsupported value: "Bogus": supported values: "Equal", "Exists"',
      'spec.tolerations[0].operator|FieldValueNotSupported|Unsupported value: "Bogus": supported values: "Equal", "Exists"'] },
  { name: 'scheduling gate removed', base: gated, mutate: (p) => { p.spec['schedulingGates'] = []; }, want: [] },
  { name: 'scheduling gate added', base: gated, mutate: (p) => { p.spec['schedulingGates'] = [{ name: 'example.com/a' }, { name: 'example.com/b' }]; },
    want: ["spec.schedulingGates[1].name|FieldValueForbidden|Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/b'"] },
  { name: 'gated pod gains a node selector', base: gated, mutate: (p) => { p.spec['nodeSelector'] = { zone: 'a' }; }, want: [] },
  { name: 'gated pod changes a node selector', base: { ...gated, nodeSelector: { zone: 'a' } }, mutate: (p) => { p.spec['nodeSelector'] = { zone: 'b' }; },
    want: ['spec.nodeSelector|FieldValueInvalid|Invalid value: {"zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)'] },
  { name: 'gated pod gains node affinity', base: gated,
    mutate: (p) => { p.spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term('a')] } } }; }, want: [] },
  { name: 'gated pod narrows a node affinity term', base: { ...gated, affinity: required([term('a')]) },
    mutate: (p) => { p.spec['affinity'] = required([{ matchExpressions: [...term('a').matchExpressions, { key: 'j', operator: 'Exists' }] }]); }, want: [] },
  { name: 'gated pod changes a node affinity term', base: { ...gated, affinity: required([term('a')]) },
    mutate: (p) => { p.spec['affinity'] = required([term('b')]); },
    want: [`${TERMS}[0]|FieldValueInvalid|Invalid value: {"MatchExpressions":[{"Key":"k","Operator":"In","Values":["b"]}],"MatchFields":null}: ` +
      'only additions are allowed (no mutations or deletions)'] },
  { name: 'gated pod adds a node affinity term', base: { ...gated, affinity: required([term('a')]) },
    mutate: (p) => { p.spec['affinity'] = required([term('a'), { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] }]); },
    want: [`${TERMS}|FieldValueInvalid|Invalid value: [{"MatchExpressions":[{"Key":"k","Operator":"In","Values":["a"]}],"MatchFields":null},` +
      '{"MatchExpressions":null,"MatchFields":[{"Key":"metadata.name","Operator":"In","Values":["n"]}]}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed'] },
  { name: 'ephemeral container with ports', ephemeral: true,
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'e', image: 'busybox', ports: [{ containerPort: 80 }] }]; },
    want: ['spec.ephemeralContainers[0].ports|FieldValueForbidden|Forbidden: cannot be set for an Ephemeral Container'] },
  { name: 'ephemeral container targets an unknown container', ephemeral: true,
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'e', image: 'busybox', targetContainerName: 'nope' }]; },
    want: ['spec.ephemeralContainers[0].targetContainerName|FieldValueNotFound|Not found: "nope"'] },
  { name: 'ephemeral container named like a container, with a subPath', ephemeral: true,
    mutate: (p) => { p.spec['ephemeralContainers'] = [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/m', subPath: 'x' }] }]; },
    want: ['spec.ephemeralContainers[0].volumeMounts[0].name|FieldValueNotFound|Not found: "v"',
      'spec.ephemeralContainers[0].name|FieldValueDuplicate|Duplicate value: "c"',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath|FieldValueForbidden|Forbidden: cannot be set for an Ephemeral Container'] },
  { name: 'mirror annotation added', mutate: (p) => { p.metadata['annotations'] = { 'kubernetes.io/config.mirror': 'x' }; },
    want: [`${MIRROR}|FieldValueForbidden|Forbidden: may not add mirror pod annotation`,
      `${MIRROR}|FieldValueInvalid|Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`,
      `${MIRROR}|FieldValueInvalid|Invalid value: "x": must set spec.nodeName if mirror pod annotation is set`] },
];

function pod(base: Record<string, unknown> | undefined): Pod {
  const p = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }], serviceAccountName: 'default', ...base } } as Pod;
  defaultPod(p);
  return p;
}

describe('pod update validation (ValidatePodUpdate)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const old = pod(c.base);
      const next = structuredClone(old);
      c.mutate(next as unknown as Mutable);
      defaultPod(next);
      const got = (c.ephemeral === true ? validateEphemeralContainersUpdate(next, old) : validatePodUpdate(next, old)).map((e) => `${e.field}|${e.type}|${errorBody(e).split('\n')[0] ?? ''}`).sort();
      assert.deepEqual(got, [...c.want].sort());
    });
  }
});
