// kube's v1.36 CEL libraries, one table: each expression with the value or error kube gives. The
// expected values are kube's and cel-go's (k8s.io/apiserver@v0.36.3/pkg/cel/library/*_test.go,
// github.com/google/cel-go@v0.26.0/ext/*_test.go) and, for what the environment lacks, what
// kube-apiserver v1.36.3 answered when a CRD used it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile, evaluate, fromCelValue, newEnvironment } from './index.ts';

/** A value (as JSON), a runtime error (`err`, exact or /regex/), or a compile error (`compile`, substring). */
type Want = unknown;
const env = newEnvironment([]);
const isCompile = (w: Want): w is { readonly compile: string } => typeof w === 'object' && w !== null && 'compile' in w;
const isErr = (w: Want): w is { readonly err: string | RegExp } => typeof w === 'object' && w !== null && 'err' in w;

const cases: readonly (readonly [string, Want])[] = [
  // lists (k8s.io/apiserver/pkg/cel/library/lists.go)
  ['[1, 2, 3].isSorted()', true], ['[3, 1].isSorted()', false], ["['a', 'b'].isSorted()", true], ['[].isSorted()', true],
  ['[1, 2, 3].sum()', 6], ['[1.5, 2.5].sum()', 4], ['[duration("1s"), duration("2s")].sum() == duration("3s")', true], ['[].sum()', 0],
  ['[3, 1, 2].min()', 1], ['[3, 1, 2].max()', 3], ["['b', 'a'].min()", 'a'], ['[].min()', { err: 'min called on empty list' }],
  ['[].max()', { err: 'max called on empty list' }], ['[1, 2, 2, 3].indexOf(2)', 1], ['[1, 2, 2, 3].lastIndexOf(2)', 2], ['[1].indexOf(5)', -1],
  ['[9223372036854775807, 1].sum()', { err: 'integer overflow' }],
  ['isSorted([1])', { compile: "found no matching overload for 'isSorted' applied to '(list(int))'" }],
  // cel-go ext lists v3
  ['[1, 2, 3, 4].slice(1, 3)', [2, 3]], ['[1, 2].slice(2, 1)', { err: 'cannot slice(2, 1), start index must be less than or equal to end index' }],
  ['[1, 2].slice(-1, 1)', { err: 'cannot slice(-1, 1), negative indexes not supported' }], ['[1, 2].slice(0, 3)', { err: 'cannot slice(0, 3), list is length 2' }],
  ['[[1, 2], [3]].flatten()', [1, 2, 3]], ['[dyn([1]), dyn([[2, 3]])].flatten(2)', [1, 2, 3]], ['[dyn([1]), dyn([2])].flatten(-1)', { err: 'level must be non-negative' }],
  ['lists.range(4)', [0, 1, 2, 3]], ['[1, 2, 3].reverse()', [3, 2, 1]], ['[1, 2, 1, 3].distinct()', [1, 2, 3]], ['[3, 1, 2].sort()', [1, 2, 3]],
  ["['b', 'c', 'a'].sort()", ['a', 'b', 'c']], ["[{'n': 'b'}, {'n': 'a'}].sortBy(e, e.n).map(e, e.n)", ['a', 'b']],
  ['[1, 2].first().value()', 1], ['[].first().hasValue()', false], ['[1, 2].last().value()', 2],
  ['[1, 2].first() == 1', { compile: "found no matching overload for '_==_' applied to '(optional_type(int), int)'" }],
  // strings extension v2
  ["'hello'.charAt(1)", 'e'], ["'hello'.charAt(5)", ''], ["'hello'.charAt(6)", { err: 'index out of range: 6' }],
  ["'hello mellow'.indexOf('ello')", 1], ["'hello mellow'.indexOf('ello', 2)", 7], ["'hello'.indexOf('', 2)", 2], ["'hello'.indexOf('l', -1)", { err: 'index out of range: -1' }],
  ["'hello'.indexOf('l', 10)", -1], ["'😀a'.indexOf('a')", 1], ["'hello mellow'.lastIndexOf('ello')", 7], ["'hello mellow'.lastIndexOf('ello', 6)", 1],
  ["'hello'.lastIndexOf('')", 5], ["'TacoCat'.lowerAscii()", 'tacocat'], ["'TacoCÆt'.lowerAscii()", 'tacocÆt'], ["'tacoçat'.upperAscii()", 'TACOçAT'],
  ["'hello hello'.replace('he', 'we')", 'wello wello'], ["'hello hello'.replace('he', 'we', 1)", 'wello hello'], ["'hello'.replace('', '_')", '_h_e_l_l_o_'],
  ["'hello hello'.split(' ')", ['hello', 'hello']], ["'a,b,c'.split(',', 2)", ['a', 'b,c']], ["'a,b,c'.split(',', 0)", []], ["'abc'.split('')", ['a', 'b', 'c']],
  ["'tacocat'.substring(4)", 'cat'], ["'tacocat'.substring(0, 4)", 'taco'], ["'tacocat'.substring(-1)", { err: 'index out of range: -1' }],
  ["'tacocat'.substring(1, 40)", { err: 'index out of range: 40' }], ["'tacocat'.substring(3, 1)", { err: 'invalid substring range. start: 3, end: 1' }],
  ["'  \\ttrim\\n    '.trim()", 'trim'], ["['x', 'y'].join()", 'xy'], ["['x', 'y'].join('-')", 'x-y'], ['[].join()', ''],
  ["'%s and %d and %.2f'.format([dyn('a'), dyn(5), dyn(1.5)])", 'a and 5 and 1.50'], ["'%x %X %o %b'.format([255, 255, 8, 5])", 'ff FF 10 101'],
  ["'%s'.format([[dyn(1), dyn('a')]])", '[1, "a"]'], ["'%d'.format([1.5])", { compile: "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given double" }],
  ["'%d'.format([dyn(1.5)])", { err: 'error during formatting: decimal clause can only be used on integers, was given double' }],
  ["'%s %s'.format(['a'])", { compile: 'ERROR: <input>:1:15: index 1 out of range' }], ["'%e'.format([1234.5678])", '1.234568×10⁰³'], ["'%.2e'.format([0.00012])", '1.20×10⁻⁰⁴'],
  ["'%s'.format([{'b': 1, 'a': 2}])", '{"a":2, "b":1}'], ["'%s|%s|%s'.format([dyn(duration('90s')), dyn(b'abc'), dyn(null)])", '90s|abc|null'],
  ["'%s %s'.format([dyn(1e21), dyn(0.00001)])", '1e+21 1e-05'], ["'%.3f'.format([2.0 / 3.0])", '0.667'], ["'%x'.format(['hi'])", '6869'],
  ["'%o'.format([-8])", '-10'], ["'%b'.format([true])", '1'], ["string(duration('90s'))", '90s'], ["string(timestamp('2020-01-01T00:00:00Z'))", '2020-01-01T00:00:00Z'],
  ["strings.quote('hi\\n\"there\"')", '"hi\\n\\"there\\""'],
  ["'abc'.reverse()", { compile: "found no matching overload for 'reverse' applied to 'string.()'" }],
  // regex (k8s.io/apiserver/pkg/cel/library/regex.go, RE2 semantics)
  ["'abc 123'.find('[0-9]+')", '123'], ["'abc'.find('[0-9]+')", ''], ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
  ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']], ["'123 abc 456'.findAll('[0-9]+', 0)", []], ["'ABC'.matches('(?i)abc')", true],
  ["'abc'.matches('^b')", false], ["matches('abc', 'b')", true], ["'abc'.matches('[')", { compile: 'invalid matches argument' }],
  ["'abc'.matches('(?=b)')", { compile: 'invalid matches argument' }], ["'a'.matches(dyn('['))", { compile: 'program instantiation failed: error parsing regexp: missing closing ]: `[`' }],
  // RE2's \s is ASCII whitespace, its `.` excludes only \n, a class may start with `]` (Go's regexp).
  ["'a\u00a0b'.find('a\\\\sb')", ''], ["'a\\rb'.find('a.b')", 'a\rb'], ["'x]y'.find('[]x]+')", 'x]'], ["'x]y'.findAll('[^]x]')", ['y']],
  ["'a'.find('[')", { compile: 'program instantiation failed: error parsing regexp: missing closing ]: `[`' }],
  ["'a'.find(dyn('['))", { compile: 'program instantiation failed: error parsing regexp: missing closing ]: `[`' }],
  // URLs (k8s.io/apiserver/pkg/cel/library/urls.go)
  ["url('https://example.com:80/path?query=val#fragment').getScheme()", 'https'], ["url('https://example.com:80/path').getHost()", 'example.com:80'],
  ["url('https://[::1]:80/path').getHostname()", '::1'], ["url('https://example.com:80/path').getPort()", '80'], ["url('https://example.com/').getPort()", ''],
  ["url('https://example.com/with space').getEscapedPath()", '/with%20space'], ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
  ["isURL('https://example.com')", true], ["isURL('../relative-path')", false], ["isURL('/absolute-path')", true],
  ["url('../relative-path')", { err: 'URL parse error during conversion from string: parse "../relative-path": invalid URI for request' }],
  ["url('https://a.com/x') == url('https://a.com/x')", true],
  // quantity (k8s.io/apiserver/pkg/cel/library/quantity.go)
  ["quantity('10Mo')", { err: /^quantities must match the regular expression/ }], ["quantity('10Mm')", { err: "unable to parse quantity's suffix" }],
  ["isQuantity('20Mi')", true], ["isQuantity('20Mo')", false], ["quantity('200M') == quantity('0.2G')", true], ["quantity('200M') == quantity('0.3G')", false],
  ["quantity('50M').isLessThan(quantity('50Mi'))", true], ["quantity('50Mi').isGreaterThan(quantity('50M'))", true],
  ["quantity('50M').compareTo(quantity('50Mi'))", -1], ["quantity('50k').add(quantity('20')) == quantity('50.02k')", true],
  ["quantity('50k').sub(20) == quantity('49980')", true], ["quantity('50k').add(20).sub(quantity('100k')).asInteger()", -49980],
  ["quantity('9999999999999999999999999999999999999G').asInteger()", { err: 'cannot convert value to integer' }],
  ["quantity('9999999999999999999999999999999999999G').isInteger()", false], ["quantity('50.703k').asApproximateFloat()", 50703],
  ["sign(quantity('-1'))", -1], ["quantity('-1').sign()", { compile: "found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'" }], ["isQuantity([1, 2, 3])", { compile: "found no matching overload for 'isQuantity' applied to" }],
  // IP and CIDR (k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go)
  ["ip('192.168.0.1.0')", { err: 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long' }],
  ["isIP('192.168.0.1')", true], ["isIP('192.168.0.1.0')", false], ["isIP('127.0.0.01')", false], ["ip.isCanonical('127.0.0.1')", true],
  ["ip.isCanonical('2001:DB8::68')", false], ["ip('192.168.0.1').family()", 4], ["ip('2001:db8::68').family()", 6], ["ip('0.0.0.0').isUnspecified()", true],
  ["ip('127.0.0.1').isLoopback()", true], ["ip('::1').isLoopback()", true], ["ip('224.0.0.1').isLinkLocalMulticast()", true],
  ["ip('224.0.1.1').isLinkLocalMulticast()", false], ["ip('ff02::1').isLinkLocalMulticast()", true], ["ip('169.254.169.254').isLinkLocalUnicast()", true],
  ["ip('fe80::1').isLinkLocalUnicast()", true], ["ip('192.168.0.1').isGlobalUnicast()", true], ["ip('255.255.255.255').isGlobalUnicast()", false],
  ["ip('ff00::1').isGlobalUnicast()", false], ["string(ip('192.168.0.1'))", '192.168.0.1'], ["type(ip('192.168.0.1')) == net.IP", true], ["type(cidr('192.168.0.0/24')) == net.CIDR", true],
  ["type(quantity('1')) == kubernetes.Quantity", true], ["type(semver('1.0.0')) == net.IP", false], ["ip('::ffff:1.2.3.4')", { err: 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed' }],
  ["isIP(cidr('192.168.0.0/24'))", { compile: "found no matching overload for 'isIP' applied to '(net.CIDR)'" }],
  ["cidr('192.168.0.0/')", { err: 'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""' }],
  ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true], ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
  ["cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))", true], ["cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')", false],
  ["cidr('2001:db8::/32').containsIP('2001:db8::1')", true], ["cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/31'))", false],
  ["string(cidr('192.168.0.1/24').masked())", '192.168.0.0/24'], ["string(cidr('192.168.0.1/24').ip())", '192.168.0.1'],
  ["cidr('192.168.0.0/24').prefixLength()", 24], ["string(cidr('2001:db8:1::/32').masked())", '2001:db8::/32'], ["isCIDR('1.2.3.4')", false],
  // format (k8s.io/apiserver/pkg/cel/library/format.go)
  ["format.dns1123Label().validate('my-label-name')", null],
  ["format.dns1123Label().validate('contains a space')", ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
  ["format.dns1123LabelPrefix().validate('my-label-prefix-')", null], ["format.qualifiedName().validate('apiextensions.k8s.io/v1beta1')", null],
  ["format.uri().validate('http://example.com')", null], ["format.uuid().validate('123e4567-e89b-12d3-a456-426614174000')", null],
  ["format.byte().validate('aGVsbG8')", ['invalid base64']], ["format.date().validate('2020-01-32')", ['invalid date']],
  ["format.datetime().validate('2020-01-01T00:00:00Z')", null], ["format.datetime().validate('2020-01-32T00:00:00Z')", ['invalid datetime']],
  ["format.named('unknown').hasValue()", false], ["format.named('dns1123Label').value() == format.dns1123Label()", true],
  ["format.dns1123Label() == format.dns1123Subdomain()", false], ["format.labelValue().validate('my-cool-label-Value')", null],
  // semver (k8s.io/apiserver/pkg/cel/library/semverlib.go)
  ["semver('v1.0')", { err: 'No Major.Minor.Patch elements found' }], ["isSemver('1.2.3-beta.1+build.1')", true], ["isSemver('v1.0.0')", false],
  ["isSemver('01.01.01')", false], ["isSemver('v1.0.0', true)", true], ["isSemver('1.1', true)", true], ["semver('v01.01', true) == semver('1.1.0')", true],
  ["semver('1.0.0').isLessThan(semver('1.2.3'))", true], ["semver('1.2.3').isGreaterThan(semver('1.0.0'))", true],
  ["semver('1.0.0').compareTo(semver('1.2.3'))", -1], ["semver('1.2.3').major()", 1], ["semver('1.2.3').minor()", 2], ["semver('1.2.3').patch()", 3],
  ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true], ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
  // sets extension
  ['sets.contains([1, 2, 3], [2, 3])', true], ['sets.contains([1, 2], [3])', false], ['sets.contains([1], [])', true],
  ['sets.equivalent([1, 2], [2, 1, 1])', true], ['sets.equivalent([1], [1, 2])', false], ['sets.intersects([1, 2], [2, 5])', true], ['sets.intersects([1], [])', false],
  // two-variable comprehensions (cel-go ext/comprehensions.go)
  ['[1, 2, 3].all(i, v, i < v)', true], ['[1, 2, 3].exists(i, v, i == 1 && v == 2)', true], ['[1, 2, 3].existsOne(i, v, v > 2)', true],
  ["{'a': 1, 'b': 2}.all(k, v, v > 0)", true], ['[1, 2].transformList(i, v, i + v)', [1, 3]], ['[1, 2, 3].transformList(i, v, v > 1, v * 10)', [20, 30]],
  ["{'a': 1}.transformMap(k, v, v + 1)", { a: 2 }], ["{'a': 1, 'b': 2}.transformMap(k, v, v > 1, v)", { b: 2 }],
  ["{'a': 1}.transformMapEntry(k, v, {k + k: v})", { aa: 1 }], ["[1, 2].transformMapEntry(i, v, {'k': v})", { err: 'insert failed: key k already exists' }],
  // standard macros
  ['[1, 2, 3].all(x, x > 0)', true], ['[1, 2, 3].exists(x, x > 2)', true], ['[1, 2, 3].exists_one(x, x > 1)', false],
  ['[1, 2, 3].map(x, x * 2)', [2, 4, 6]], ["[1, 'a']", { compile: "expected type 'int' but found 'string'" }], ['[1, 2, 3].map(x, x > 1, x * 2)', [4, 6]], ['[1, 2, 3].filter(x, x > 1)', [2, 3]],
  ['[1].exists_one(x, x == 1)', true], ["has({'a': 1}.a)", true], ["has({'a': 1}.b)", false], ["[{'a': 1}].all(m, has(m.a))", true],
  ["has([{'a': 1}][0].a)", true], ['has(1.a)', { compile: "ERROR: <input>:1:4: type 'int' does not support field selection" }],
  // optional types
  ["{'a': 1}.?a.orValue(0)", 1], ["{'a': 1}.?b.orValue(0)", 0], ['[1][?3].hasValue()', false], ['optional.of(1).value()', 1],
  ['optional.none().or(optional.of(2)).value()', 2], ['optional.ofNonZeroValue(0).hasValue()', false], ["optional.ofNonZeroValue('a').hasValue()", true],
  ['optional.of(2).optMap(x, x * 3).value()', 6], ['optional.none().optMap(x, x * 3).hasValue()', false], ['optional.of(2).optFlatMap(x, optional.of(x + 1)).value()', 3],
  ['optional.none().value()', { err: 'optional.none() dereference' }],
  // numbers: cross-type comparison is allowed, mixed arithmetic and equality are not
  ['1 < 1.5', true], ['2u > 1', true], ['1 == 1.0', { compile: "found no matching overload for '_==_' applied to '(int, double)'" }],
  ['dyn(1) == 1.0', true], ['1 + 1u', { compile: "found no matching overload for '_+_' applied to '(int, uint)'" }], ['5 / 0', { err: 'division by zero' }],
  ['5 % 0', { err: 'modulus by zero' }], ['-9223372036854775808 - 1', { err: 'integer overflow' }],
  // not in kube's environment (kube-apiserver v1.36.3 refuses them in a CRD rule)
  ['cel.bind(x, 1, x + 1)', { compile: "undeclared reference to 'cel' (in container '')" }], ['math.greatest(1, 2)', { compile: "undeclared reference to 'math' (in container '')" }],
  ["base64.encode(b'abc')", { compile: "undeclared reference to 'base64' (in container '')" }], ["b'abc'.hex()", { compile: "ERROR: <input>:1:11: undeclared reference to 'hex' (in container '')" }],
  ["'abc'.fooBar()", { compile: "ERROR: <input>:1:13: undeclared reference to 'fooBar' (in container '')" }],
  ["duration('1x')", { compile: 'invalid duration argument' }], ["timestamp('2020-13-01')", { compile: 'invalid timestamp argument' }],
];

for (const [expr, want] of cases) {
  test(`kube's library: ${expr}`, () => {
    const r = compile(expr, env);
    if (isCompile(want)) {
      assert.ok(r.error?.detail.includes(want.compile), `${r.error?.detail ?? 'compiled'} should include ${want.compile}`);
      return;
    }
    assert.equal(r.error, undefined, r.error?.detail);
    const v = evaluate(r.program!, {});
    if (isErr(want)) {
      assert.ok(v.error !== undefined, `expected an error, got ${JSON.stringify(fromCelValue(v.value))}`);
      if (want.err instanceof RegExp) assert.match(v.error.detail, want.err);
      else assert.equal(v.error.detail, want.err);
      return;
    }
    assert.equal(v.error, undefined, v.error?.detail);
    assert.deepEqual(fromCelValue(v.value), want);
  });
}
