// Go's regexp/syntax rules (RE2), checked case by case: what Go refuses with its error text, and what
// Go accepts matched as Go matches it (the cases where JavaScript's own RegExp differs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileRE2, RE2SyntaxError } from './re2.ts';

const REFUSED: readonly { name: string; pattern: string; error: string }[] = [
  { name: 'lookahead', pattern: '^(?=a)a$', error: 'invalid or unsupported Perl syntax: `(?=`' },
  { name: 'negative lookahead', pattern: 'a(?!b)', error: 'invalid or unsupported Perl syntax: `(?!`' },
  { name: 'lookbehind reads as a named capture', pattern: '(?<=a)b', error: 'invalid named capture: `(?<=a)b`' },
  { name: 'backreference', pattern: '(a)\\1', error: 'invalid escape sequence: `\\1`' },
  { name: 'possessive quantifier', pattern: 'a++', error: 'invalid nested repetition operator: `++`' },
  { name: 'stacked repeats', pattern: 'a{2}*', error: 'invalid nested repetition operator: `{2}*`' },
  { name: 'unclosed group', pattern: '(ab', error: 'missing closing ): `(ab`' },
  { name: 'unopened group', pattern: 'ab)', error: 'unexpected ): `ab)`' },
  { name: 'repeat of nothing', pattern: '*a', error: 'missing argument to repetition operator: `*`' },
  { name: 'repeat after |', pattern: 'a|+', error: 'missing argument to repetition operator: `+`' },
  { name: '\\Z', pattern: 'a\\Z', error: 'invalid escape sequence: `\\Z`' },
  { name: 'repeat over 1000', pattern: 'a{1001}', error: 'invalid repeat count: `{1001}`' },
  { name: 'min above max', pattern: 'a{3,2}', error: 'invalid repeat count: `{3,2}`' },
  { name: 'unknown letter escape', pattern: '\\o', error: 'invalid escape sequence: `\\o`' },
  { name: 'unclosed class', pattern: '[ab', error: 'missing closing ]: `[ab`' },
  { name: 'reversed class range', pattern: '[z-a]', error: 'invalid character class range: `z-a`' },
  { name: 'unknown POSIX class', pattern: '[[:bogus:]]', error: 'invalid character class range: `[:bogus:]`' },
  { name: 'trailing backslash', pattern: 'a\\', error: 'trailing backslash at end of expression: ``' },
  { name: 'bad group name', pattern: '(?P<a-b>x)', error: 'invalid named capture: `(?P<a-b>`' },
];

const MATCHES: readonly { name: string; pattern: string; yes: readonly string[]; no: readonly string[] }[] = [
  { name: '\\z is the end of text', pattern: '^ab\\z', yes: ['ab'], no: ['abc', 'ab\n'] },
  { name: '\\A is the start of text', pattern: '\\Aab', yes: ['abc'], no: ['xab'] },
  { name: '(?i) at the start', pattern: '^(?i)ab$', yes: ['AB', 'aB'], no: ['xAB'] },
  { name: 'scoped (?i:)', pattern: '^a(?i:b)c$', yes: ['aBc', 'abc'], no: ['ABc', 'aBC'] },
  { name: '(?i) inside a group ends with it', pattern: '^(x(?i)y)z$', yes: ['xYz'], no: ['xYZ', 'XYz'] },
  { name: 'case-folded class', pattern: '^(?i)[a-c]+$', yes: ['aBc'], no: ['d'] },
  { name: '\\pL', pattern: '^\\pL+$', yes: ['abé'], no: ['ab1'] },
  { name: '\\p{Greek}', pattern: '^\\p{Greek}+$', yes: ['αβ'], no: ['ab'] },
  { name: '\\PN', pattern: '^\\PN+$', yes: ['ab'], no: ['a1'] },
  { name: '[[:alpha:]]', pattern: '^[[:alpha:]]+$', yes: ['ab'], no: ['ab1'] },
  { name: '[[:^digit:]]', pattern: '^[[:^digit:]]+$', yes: ['ab'], no: ['a1'] },
  { name: '. excludes only \\n', pattern: '^a.b$', yes: ['a\rb', 'a\u2028b'], no: ['a\nb'] },
  { name: '(?s) . includes \\n', pattern: '^(?s)a.b$', yes: ['a\nb'], no: [] },
  { name: '\\s is ASCII', pattern: '^\\s$', yes: [' ', '\t'], no: ['\u00a0', '\v'] },
  { name: '(?m) ^ after \\n only', pattern: '(?m)^b', yes: ['a\nb'], no: ['a\rb'] },
  { name: 'literal {', pattern: '^a{,2}$', yes: ['a{,2}'], no: ['aa'] },
  { name: '\\Q..\\E quotes', pattern: '^\\Qa.b\\E$', yes: ['a.b'], no: ['axb'] },
  { name: 'named group', pattern: '^(?P<x>a)(?<y>b)$', yes: ['ab'], no: ['a'] },
  { name: 'octal and hex', pattern: '^\\101\\x42\\x{43}$', yes: ['ABC'], no: ['abc'] },
  { name: '(?U) swaps greediness', pattern: '^(?U)(a+)(a*)$', yes: ['aaa'], no: [] },
  { name: 'repeat of ^', pattern: '^*a', yes: ['a'], no: ['b'] },
  { name: 'unanchored search', pattern: 'b', yes: ['abc'], no: ['ac'] },
];

describe('RE2 patterns refused with Go\'s error text', () => {
  for (const c of REFUSED) {
    it(c.name, () => {
      assert.throws(() => compileRE2(c.pattern), (e: unknown) => e instanceof RE2SyntaxError && e.message === `error parsing regexp: ${c.error}`);
    });
  }
});

describe('RE2 patterns matched as Go matches them', () => {
  for (const c of MATCHES) {
    it(c.name, () => {
      const re = compileRE2(c.pattern);
      for (const s of c.yes) assert.ok(re.test(s), `${c.pattern} should match ${JSON.stringify(s)}`);
      for (const s of c.no) assert.ok(!re.test(s), `${c.pattern} should not match ${JSON.stringify(s)}`);
    });
  }
});
