// YAML bytes as kube-apiserver v1.36 wrote them for the same values (observed on the oracle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { encodeYAML, goYAMLAmbiguous } from './yaml.ts';

const words = (n: number, w = 'word'): string => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');

test('strings go-yaml would read back as another type are double-quoted', () => {
  const cases = [
    { name: 'YAML 1.1 booleans', value: { a: 'yes', b: 'on', c: 'Off', d: 'y', e: 'N' }, want: 'a: "yes"\nb: "on"\nc: "Off"\nd: "y"\ne: "N"\n' },
    { name: 'a timestamp', value: { t: '2026-11-25T02:10:48Z' }, want: 't: "2026-11-25T02:10:48Z"\n' },
    { name: 'dates', value: { a: '2026-01-01', b: '2026-1-2', c: '2026-01-02 03:04:05' }, want: 'a: "2026-01-01"\nb: "2026-1-2"\nc: "2026-01-02 03:04:05"\n' },
    { name: 'numbers in go\'s spellings', value: { a: '0x1F', b: '1_000', c: '.5', d: '190:20:30', e: '0b101', f: '-12', g: '017', h: '1e3' },
      want: 'a: "0x1F"\nb: "1_000"\nc: ".5"\nd: "190:20:30"\ne: "0b101"\nf: "-12"\ng: "017"\nh: "1e3"\n' },
    { name: 'null spellings', value: { a: '~', b: 'null', c: '' }, want: 'a: "~"\nb: "null"\nc: ""\n' },
    { name: 'a key that reads as a boolean', value: { n: 'x' }, want: '"n": x\n' },
    { name: 'plain strings stay plain', value: { a: 'a:b', b: '?x', c: '<<', d: '=', e: 'héllo' }, want: 'a: a:b\nb: ?x\nc: <<\nd: =\ne: héllo\n' },
  ];
  for (const c of cases) assert.equal(encodeYAML(c.value), c.want, c.name);
});

test('what cannot be plain is single-quoted; what is not printable is double-quoted with libyaml\'s escapes', () => {
  const cases = [
    { name: 'indicators and structure', value: { a: '- x', b: 'a: b', c: ' lead', d: 'x ', e: '&x', f: '#x', g: 'a #b' },
      want: "a: '- x'\nb: 'a: b'\nc: ' lead'\nd: 'x '\ne: '&x'\nf: '#x'\ng: 'a #b'\n" },
    { name: 'quotes inside', value: { a: 'say "hi": now', b: 'a\'b"c: d' }, want: 'a: \'say "hi": now\'\nb: \'a\'\'b"c: d\'\n' },
    // kube answers 500 "yaml: control characters are not allowed" for DEL; kapi escapes it.
    { name: 'control characters', value: { a: 'a\tb', b: 'a\rb', c: '\u0001', d: 'x\u007fy', e: 'x\u0085y', f: 'x\ufeffy', g: 'x\u001by' },
      want: 'a: "a\\tb"\nb: "a\\rb"\nc: "\\x01"\nd: "x\\x7Fy"\ne: "x\\Ny"\nf: "x\\uFEFFy"\ng: "x\\ey"\n' },
    { name: 'the astral planes', value: { a: '😀 x' }, want: 'a: "\\U0001F600 x"\n' },
    { name: 'several lines: a literal block', value: { a: 'one\ntwo' }, want: 'a: |-\n  one\n  two\n' },
  ];
  for (const c of cases) {
    const out = encodeYAML(c.value);
    assert.equal(out, c.want, c.name);
    assert.deepEqual(parse(out), c.value, `${c.name}: reads back`);
  }
});

test('long strings fold as libyaml folds: at the first single space past column 80', () => {
  const long = words(40);
  assert.equal(encodeYAML({ data: { long } }),
    'data:\n  long: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11\n' +
    '    word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23\n' +
    '    word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 word34 word35\n    word36 word37 word38 word39\n');
  assert.equal(encodeYAML({ l: [words(30, 'name')] }),
    'l:\n- name0 name1 name2 name3 name4 name5 name6 name7 name8 name9 name10 name11 name12\n' +
    '  name13 name14 name15 name16 name17 name18 name19 name20 name21 name22 name23 name24\n  name25 name26 name27 name28 name29\n');
  const quoted = `${words(20)}: it's ${words(10)}`;
  assert.equal(encodeYAML({ sq2: quoted }),
    "sq2: 'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12\n" +
    "  word13 word14 word15 word16 word17 word18 word19: it''s word0 word1 word2 word3\n  word4 word5 word6 word7 word8 word9'\n");
  for (const v of [{ long }, { l: [long] }, { sq2: quoted }, { d: `${words(20)}\t${words(20)}` }]) assert.deepEqual(parse(encodeYAML(v)), v);
});

test('goYAMLAmbiguous', () => {
  for (const s of ['yes', 'NULL', '.inf', '+1', '0o17', '1:20', '2026-01-01', '2026-01-01T00:00:00+02:00']) assert.equal(goYAMLAmbiguous(s), true, s);
  for (const s of ['yess', 'a1', '1.2.3', '2026-13-01', '-', '--1', 'v1', '1a', '2026-01-01T00:00:00']) assert.equal(goYAMLAmbiguous(s), false, s);
});
