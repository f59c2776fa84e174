import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readCSV } from './csv.ts';

describe('readCSV (Go encoding/csv dialect)', () => {
  const cases: { name: string; input: string; want: string[][] }[] = [
    { name: 'simple', input: 'a,b,c\n', want: [['a', 'b', 'c']] },
    { name: 'no final newline', input: 'a,b', want: [['a', 'b']] },
    { name: 'CRLF', input: 'a,b\r\nc,d\r\n', want: [['a', 'b'], ['c', 'd']] },
    { name: 'empty lines skipped', input: '\na\n\n\nb\n', want: [['a'], ['b']] },
    { name: 'variable field counts', input: 'a\nb,c,d\n', want: [['a'], ['b', 'c', 'd']] },
    { name: 'quoted comma', input: 't,u,1,"g1,g2"\n', want: [['t', 'u', '1', 'g1,g2']] },
    { name: 'escaped quote', input: '"a""b",c\n', want: [['a"b', 'c']] },
    { name: 'quoted newline', input: '"a\nb",c\n', want: [['a\nb', 'c']] },
    { name: 'empty fields', input: ',,\n', want: [['', '', '']] },
    { name: 'leading spaces kept', input: ' a, b\n', want: [[' a', ' b']] },
    { name: 'whitespace-only line is a record', input: ' \n', want: [[' ']] },
    { name: 'hash is data (no comments)', input: '#a,b\n', want: [['#a', 'b']] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(readCSV(c.input), c.want));

  const errors: { name: string; input: string; want: string }[] = [
    { name: 'bare quote', input: 'ab"c,d\n', want: 'parse error on line 1, column 3: bare " in non-quoted-field' },
    { name: 'bare quote after space', input: 'a, "b"\n', want: 'parse error on line 1, column 4: bare " in non-quoted-field' },
    { name: 'text after closing quote', input: '"a"b\n', want: 'parse error on line 1, column 3: extraneous or missing " in quoted-field' },
    { name: 'unterminated quote', input: 'x\n"abc\n', want: 'parse error on line 2, column 6: extraneous or missing " in quoted-field' },
    { name: 'unterminated quote at EOF', input: '"abc', want: 'parse error on line 1, column 5: extraneous or missing " in quoted-field' },
    { name: 'error on a later line of a record', input: '"a\nb"c\n',
      want: 'record on line 1; parse error on line 2, column 2: extraneous or missing " in quoted-field' },
  ];
  for (const c of errors) it(`rejects: ${c.name}`, () => assert.throws(() => readCSV(c.input), { name: 'CSVParseError', message: c.want }));
});
