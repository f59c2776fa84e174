import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseMediaType } from './media-type.ts';

describe('parseMediaType (mime.ParseMediaType)', () => {
  const ok = [
    { name: 'plain', in: 'application/json', type: 'application/json', params: {} },
    { name: 'case and spaces', in: ' Application/JSON ', type: 'application/json', params: {} },
    { name: 'charset', in: 'application/json; charset=UTF-8', type: 'application/json', params: { charset: 'UTF-8' } },
    { name: 'trailing semicolon', in: 'application/json;', type: 'application/json', params: {} },
    { name: 'trailing semicolon and space', in: 'application/json; ', type: 'application/json', params: {} },
    { name: 'quoted value', in: 'application/json; a="b;c"', type: 'application/json', params: { a: 'b;c' } },
    { name: 'quoted escape', in: 'application/json; a="b\\"c"', type: 'application/json', params: { a: 'b"c' } },
    { name: 'equal duplicate', in: 'text/plain; a=1; A=1', type: 'text/plain', params: { a: '1' } },
    { name: 'bare token', in: 'application', type: 'application', params: {} },
  ];
  for (const c of ok) {
    it(c.name, () => assert.deepEqual(parseMediaType(c.in), { mediaType: c.type, params: c.params }));
  }
  const bad = [
    { name: 'semicolons only', in: ';;;' },
    { name: 'empty', in: '' },
    { name: 'no subtype', in: 'application/' },
    { name: 'no type', in: '/json' },
    { name: 'two slashes', in: 'application/json/x' },
    { name: 'space inside', in: 'application/ json' },
    { name: 'parameter without value', in: 'application/json; foo' },
    { name: 'two trailing semicolons', in: 'application/json;;' },
    { name: 'semicolon space semicolon', in: 'application/json; ; ' },
    { name: 'different duplicate', in: 'application/json; a=1; a=2' },
    { name: 'unterminated quote', in: 'application/json; a="b' },
    { name: 'empty value', in: 'application/json; a=' },
    { name: 'tspecial in type', in: 'appl@cation/json' },
    { name: 'different duplicate __proto__', in: 'application/json; __proto__=1; __proto__=2' },
  ];
  it('keeps a parameter named __proto__ as data', () => {
    const mt = parseMediaType('application/json; __proto__=1');
    assert.ok(mt !== undefined && Object.hasOwn(mt.params, '__proto__'));
    assert.equal(Object.getPrototypeOf(mt.params), Object.prototype);
  });
  for (const c of bad) it(`refuses ${c.name}`, () => assert.equal(parseMediaType(c.in), undefined));
});
