// CEL expressions as kube's checker and evaluator judge them (src/e2e/cel-expressions.test.ts): each
// expression that does not compile is sent as a ValidatingAdmissionPolicy validation and as a CRD
// rule (kube refuses both with cel-go's issues: every one, with line, column and caret line), and
// rules that fail at run time are evaluated on a custom resource (kube's runtime error texts,
// RE2 patterns). Names in the expressions that the two places declare differently (`self` for
// CRDs; `object`, `request`, `authorizer` for policies) show the environments apart.
// No Go counterpart: the e2e test corpus (cases written from cel-go's parser and checker and
// k8s.io/apiserver/pkg/cel/library).
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawRequest } from './https-client.ts';
import { post, type Send, type ValidationCase } from './validation-differential.ts';

type Json = Record<string, unknown>;

const GROUP = 'celexprs.example.com';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const VAPS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
/** A guard against a hang while the CRD becomes served, not a timing assertion. */
const ATTEMPTS = 300;

/** Expressions cel-go refuses (or, for some, accepts where a lesser checker would not). */
const COMPILE: readonly { name: string; expression: string }[] = [
  { name: 'ternary of null and string', expression: '1 == 1 ? null : "x"' },
  { name: 'ternary of string and null', expression: "1 == 1 ? 'x' : null" },
  { name: 'ternary of null and int', expression: '1 == 1 ? null : 1 == 1' },
  { name: 'ternary of int and string', expression: "(1 == 1 ? 1 : 'a') == 1" },
  { name: 'two type errors', expression: 'size(1) + size(true) > 0' },
  { name: 'three type errors', expression: "1 + 'a' == 2 && 2u + 1 == 3u && true + 1 == 2" },
  { name: 'two undeclared names', expression: 'x + y == 1' },
  { name: 'undeclared receiver of a call chain', expression: "nothere.path('/x').check('get').allowed()" },
  { name: 'authorizer chain', expression: "authorizer.path('/healthz').check('get').allowed()" },
  { name: 'unknown function', expression: 'foo(1) == 1' },
  { name: 'unknown method', expression: "'a'.bar() == 1" },
  { name: 'wrong argument count', expression: "'a'.startsWith() == true" },
  { name: 'string compared with int', expression: "'a' < 1" },
  { name: 'uint plus int', expression: '1u + 1 == 2u' },
  { name: 'non-bool result', expression: "'x'" },
  { name: 'int result', expression: '1 + 1' },
  { name: 'optional orValue of another type', expression: "optional.of(1).orValue('a') == 1" },
  { name: 'has of a non-selection', expression: 'has(1)' },
  { name: 'comprehension variable not a name', expression: '[1].all(1, true)' },
  { name: 'map macro with one argument', expression: '[1].map(x) == [1]' },
  { name: 'type error inside a macro', expression: "[1, 2].all(x, x + 'a' == 'b')" },
  { name: 'errors in both branches of a macro chain', expression: "[1].map(x, x + 'a').filter(y, y + 1 > 0).size() == 0" },
  { name: 'dyn accepts anything', expression: "dyn(1) + 'a' == 'b'" },
  { name: 'heterogeneous list', expression: "[1, 'a'].size() == 2" },
  { name: 'heterogeneous map values', expression: "{'a': 1, 'b': 'c'}.size() == 2" },
  { name: 'regex constant that RE2 refuses', expression: "'abc'.matches('(?=a)')" },
  { name: 'regex constant with an unclosed group', expression: "'abc'.matches('(')" },
  { name: 'find with a bad constant pattern', expression: "'abc'.find('[') == ''" },
  // Syntax errors: cel-go's ANTLR messages. Not here yet (kapi words them differently): `0x`, `.`
  // alone, and an error on a second line after one on the first (`1 +\n+`, two issues in kube).
  { name: 'syntax: dangling operator', expression: '1 +' },
  { name: 'syntax: unclosed call', expression: 'a.b(' },
  { name: 'syntax: unclosed calls', expression: 'self.nonexistent(((' },
  { name: 'syntax: unclosed string', expression: "'abc" },
  { name: 'syntax: two operators', expression: '1 ++ 2' },
  { name: 'syntax: unclosed list', expression: '[1, 2' },
  { name: 'syntax: unclosed map', expression: '{1: 2' },
  { name: 'syntax: trailing dot', expression: 'a.' },
  { name: 'syntax: two values', expression: '1 2' },
  { name: 'syntax: half a ternary', expression: 'true ? 1' },
  { name: 'syntax: reserved word', expression: 'while == 1' },
  { name: 'syntax: reserved word as a field', expression: 'a.package == 1' },
  { name: 'syntax: empty parentheses', expression: '() == 1' },
  { name: 'syntax: error on the second line', expression: 'true &&\n(1 +)' },
  { name: 'syntax: unicode before the error', expression: "'é' == 'é' &&" },
  { name: 'syntax: unclosed call with an argument', expression: 'f(1' },
  { name: 'syntax: assignment', expression: '1 = 2' },
  { name: 'syntax: assignment without space', expression: '1 =2' },
  { name: 'syntax: unknown character', expression: '1 # 2' },
  { name: 'syntax: bad escape', expression: "'\\q' == 'q'" },
  { name: 'syntax: lone ampersand', expression: 'true & false' },
  { name: 'syntax: unclosed parenthesis', expression: '(1 == 1' },
  { name: 'syntax: list without comma', expression: '[1 2] == [1]' },
  { name: 'syntax: call after a comma', expression: 'a.b(1,' },
  { name: 'syntax: tab before the error', expression: '\t1 +' },
  { name: 'find with a bad dyn pattern', expression: "'abc'.find(dyn('[')) == ''" },
  { name: 'findAll with a constant RE2 refuses', expression: "'abc'.findAll('(?=a)').size() == 0" },
  { name: 'undeclared after a type error', expression: 'size(1) + x > 0' },
  { name: 'type errors in a comprehension and outside', expression: "[1].all(x, x + 'a' == 'b') && 1 + true == 2" },
];

/** A CRD's spec fields, each with a rule that fails at run time for the value a case sends. */
const RUNTIME: readonly { name: string; type: Json; rule: string; value: unknown }[] = [
  { name: 'int conversion', type: { type: 'string' }, rule: 'int(self) > 0', value: 'x' },
  { name: 'division by zero', type: { type: 'integer' }, rule: '100 / self > 1', value: 0 },
  { name: 'modulus by zero', type: { type: 'integer' }, rule: '100 % self > 1', value: 0 },
  { name: 'integer overflow', type: { type: 'integer' }, rule: '9223372036854775807 + self > 0', value: 1 },
  { name: 'list index out of range', type: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } }, rule: "self[3] == 'a'", value: ['a'] },
  { name: 'map key not found', type: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 5 } }, rule: "self['k'] == 'a'", value: { x: 'a' } },
  { name: 'duration from data', type: { type: 'string', maxLength: 20 }, rule: "duration(self) > duration('1s')", value: '1x' },
  { name: 'timestamp from data', type: { type: 'string', maxLength: 40 }, rule: "timestamp(self) > timestamp('2020-01-01T00:00:00Z')", value: 'yesterday' },
  { name: 'RE2 refuses a lookahead', type: { type: 'string', maxLength: 20 }, rule: "'abc'.matches(self)", value: '(?=a)' },
  { name: 'RE2 refuses a backreference', type: { type: 'string', maxLength: 20 }, rule: "'aa'.matches(self)", value: '(a)\\1' },
  { name: 'RE2 repeat above 1000', type: { type: 'string', maxLength: 20 }, rule: "'a'.matches(self)", value: 'a{1001}' },
  { name: 'RE2 Perl class \\z', type: { type: 'string', maxLength: 20 }, rule: "!'ab'.matches(self)", value: 'b\\z' },
  { name: 'RE2 POSIX class', type: { type: 'string', maxLength: 40 }, rule: "!'a1'.matches(self)", value: '^[[:alpha:]][[:digit:]]$' },
  { name: 'RE2 Unicode class', type: { type: 'string', maxLength: 20 }, rule: "!'αβ'.matches(self)", value: '^\\p{Greek}+$' },
  { name: 'RE2 flags group', type: { type: 'string', maxLength: 20 }, rule: "!'ABC'.matches(self)", value: '(?i)abc' },
  { name: 'RE2 \\Q quoting', type: { type: 'string', maxLength: 20 }, rule: "!'a.b'.matches(self)", value: '^\\Qa.b\\E$' },
  { name: 'RE2 find with a class', type: { type: 'string', maxLength: 20 }, rule: "'x12y'.find(self) == ''", value: '[[:digit:]]+' },
  { name: 'RE2 findAll', type: { type: 'string', maxLength: 20 }, rule: "'a1b22c333'.findAll(self).size() == 0", value: '\\d+' },
  { name: 'RE2 bad pattern in find', type: { type: 'string', maxLength: 20 }, rule: "'abc'.find(self) == ''", value: '(?<n>a)(?P=n)' },
  { name: 'RE2 \\s is ASCII in find', type: { type: 'string', maxLength: 20 }, rule: "'a\\u00a0b'.find(self) == ''", value: 'a\\sb' },
  { name: 'RE2 dot takes \\r in find', type: { type: 'string', maxLength: 20 }, rule: "'a\\rb'.find(self) == ''", value: 'a.b' },
  { name: 'RE2 class starting with ] in find', type: { type: 'string', maxLength: 20 }, rule: "'x]y'.find(self) == 'x]'", value: '[]x]+' },
  { name: 'JS-only syntax refused', type: { type: 'string', maxLength: 20 }, rule: "'abc'.matches(self)", value: '(?<=a)b' },
  { name: 'split index', type: { type: 'string', maxLength: 20 }, rule: "self.split(',')[3] == 'a'", value: 'a,b' },
  { name: 'no such overload at run time', type: { 'x-kubernetes-int-or-string': true }, rule: 'dyn(self) + 1 == 2', value: 'a' },
  { name: 'quantity from data', type: { type: 'string', maxLength: 20 }, rule: "quantity(self).isGreaterThan(quantity('1'))", value: 'lots' },
  { name: 'url from data', type: { type: 'string', maxLength: 20 }, rule: "url(self).getHost() == 'a'", value: 'not a url' },
  { name: 'ip from data', type: { type: 'string', maxLength: 40 }, rule: 'ip(self).family() == 4', value: '1.2.3' },
  { name: 'cidr from data', type: { type: 'string', maxLength: 40 }, rule: 'cidr(self).prefixLength() == 4', value: '1.2.3.4' },
  { name: 'semver from data', type: { type: 'string', maxLength: 40 }, rule: "semver(self).major() == 1", value: 'v1' },
];

const fieldName = (i: number): string => `f${String(i)}`;

const crd = (plural: string, kind: string, spec: Json): Json => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural, singular: plural.replace(/s$/, ''), kind, listKind: `${kind}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
  },
});

const PROBES = 'probes';
const probeSpec: Json = {
  type: 'object',
  properties: Object.fromEntries(RUNTIME.map((r, i) => [fieldName(i), { ...r.type, 'x-kubernetes-validations': [{ rule: r.rule }] }])),
};
const probes = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/${PROBES}`;

const vap = (name: string, expression: string): Json => ({
  apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
  spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    validations: [{ expression }] },
});

export function setup(): readonly RawRequest[] {
  return [post(CRDS, crd(PROBES, 'Probe', probeSpec))];
}

export async function prepare(send: Send, ns: string): Promise<void> {
  for (let k = 0; k < ATTEMPTS; k++) {
    const r = await send(post(`${probes(ns)}?dryRun=All`, { apiVersion: `${GROUP}/v1`, kind: 'Probe', metadata: { name: 'probe' }, spec: {} }));
    if (r.status === 201) return;
    await sleep(100);
  }
  throw new Error('probes never served');
}

export const CASES: readonly ValidationCase[] = [
  ...COMPILE.map((c): ValidationCase => ({ name: `policy compile: ${c.name}`, requests: (name) => [post(`${VAPS}?dryRun=All`, vap(name, c.expression))] })),
  ...COMPILE.map((c): ValidationCase => ({ name: `crd compile: ${c.name}`, requests: (name) =>
    [post(`${CRDS}?dryRun=All`, crd(`${name}s`, name.replace(/-/g, '').toUpperCase(), { type: 'object', 'x-kubernetes-validations': [{ rule: c.expression }] }))] })),
  ...RUNTIME.map((r, i): ValidationCase => ({ name: `crd runtime: ${r.name}`, requests: (name, ns) =>
    [post(probes(ns), { apiVersion: `${GROUP}/v1`, kind: 'Probe', metadata: { name }, spec: { [fieldName(i)]: r.value } })] })),
];
