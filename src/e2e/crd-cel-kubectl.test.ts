// CRD validation rules end to end with kubectl: a CRD with rules at several levels (spec, a
// property with messageExpression, map-list items with a transition rule) applied and established;
// custom resources violating them refused with kube's messages, as kubectl prints them; a CRD
// whose rule does not compile, and one whose rule is too expensive, refused. The same script runs
// against kapi and, when it is built, the kube-apiserver oracle.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, type KubectlResult } from './testing/kubectl.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

type Run = (args: readonly string[], input?: string) => Promise<KubectlResult>;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pools.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool, listKind: PoolList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
              fieldPath: .replicas
            properties:
              replicas: {type: integer}
              maxReplicas: {type: integer}
              name:
                type: string
                maxLength: 20
                x-kubernetes-validations:
                - rule: self.startsWith('p-')
                  messageExpression: "'name ' + self + ' must start with p-'"
              members:
                type: array
                maxItems: 10
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, maxLength: 10}
                    weight: {type: integer}
                  x-kubernetes-validations:
                  - rule: self.weight >= oldSelf.weight
                    message: weight may not decrease
                    reason: FieldValueForbidden
`;

const pool = (replicas: number, name: string, weight: number): string => `apiVersion: cel.example.com/v1
kind: Pool
metadata: {name: p1, namespace: default}
spec:
  replicas: ${replicas}
  maxReplicas: 3
  name: ${name}
  members: [{name: a, weight: ${weight}}]
`;

const badCRD = (rule: string, list: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: bads.cel.example.com
spec:
  group: cel.example.com
  scope: Namespaced
  names: {plural: bads, singular: bad, kind: Bad, listKind: BadList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              l: ${list}
            x-kubernetes-validations:
            - rule: "${rule}"
`;

const INVALID = 'The Pool "p1" is invalid: ';
const BAD = 'The CustomResourceDefinition "bads.cel.example.com" is invalid: ';
const RULE = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
const ADVICE = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
const CASES: readonly { name: string; args: readonly string[]; input: string; code: number; stderr?: string }[] = [
  { name: 'the CRD applies', args: ['apply', '-f', '-'], input: CRD, code: 0 },
  { name: 'the CRD is established', args: ['wait', '--for', 'condition=established', 'crd/pools.cel.example.com', '--timeout=60s'], input: '', code: 0 },
  { name: 'a spec rule with fieldPath and a messageExpression fail together', args: ['apply', '-f', '-'], input: pool(5, 'x', 1), code: 1,
    stderr: `${INVALID}\n* spec.replicas: Invalid value: replicas must not exceed maxReplicas\n* spec.name: Invalid value: "x": name x must start with p-\n` },
  { name: 'a valid pool is created', args: ['apply', '-f', '-'], input: pool(2, 'p-one', 5), code: 0 },
  { name: 'a transition rule on a map-list item refuses the update', args: ['apply', '-f', '-'], input: pool(2, 'p-one', 4), code: 1,
    stderr: `${INVALID}spec.members[0]: Forbidden: weight may not decrease\n` },
  { name: 'a rule that does not compile', args: ['apply', '-f', '-'], input: badCRD('self.nonexistent(((', '{type: array, items: {type: string}}'), code: 1,
    stderr: `${BAD}${RULE}: Invalid value: {"Rule":"self.nonexistent(((","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: ` +
      "compilation failed: ERROR: <input>:1:20: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', " +
      'NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.nonexistent(((\n | ...................^\n' },
  { name: 'a rule too expensive', args: ['apply', '-f', '-'], input: badCRD('self.l.all(x, self.l.all(y, x == y))', '{type: array, items: {type: string}}'), code: 1,
    stderr: `${BAD}\n* ${RULE}: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${ADVICE}\n` +
      `* ${RULE}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema\n` +
      `* spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${ADVICE}\n` },
];

/** Runs the cases in order; returns what each printed, for the assertions. */
async function runAll(run: Run): Promise<Map<string, KubectlResult>> {
  const out = new Map<string, KubectlResult>();
  for (const c of CASES) out.set(c.name, await run(c.args, c.input));
  return out;
}

function check(target: string, got: ReadonlyMap<string, KubectlResult>): void {
  for (const c of CASES) {
    const r = got.get(c.name);
    assert.ok(r !== undefined, c.name);
    assert.equal(r.code, c.code, `${target}: ${c.name}: ${r.stderr}`);
    if (c.stderr !== undefined) assert.equal(r.stderr, c.stderr, `${target}: ${c.name}`);
  }
}

describe('CRD validation rules with kubectl', () => {
  let s: Suite;
  let kapi: Map<string, KubectlResult>;
  before(async () => {
    s = await startSuite();
    kapi = await runAll((args, input) => s.kubectl(args, input));
  });
  after(async () => { await s?.close(); });

  it('kapi answers as kube does', () => check('kapi', kapi));

  describe('and the oracle', { skip: oracleUnavailable() ?? false }, () => {
    let oracle: Oracle;
    let home: string;
    let kube: Map<string, KubectlResult>;
    before(async () => {
      oracle = await startOracle();
      home = mkdtempSync(join(tmpdir(), 'kapi-kubectl-'));
      kube = await runAll((args, input) => kubectl({ kubeconfigPath: oracle.kubeconfigPath, home }, args, input));
    });
    after(async () => {
      await oracle?.stop();
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });
    it('kube answers as written here', () => {
      check('kube', kube);
    });
  });
});
