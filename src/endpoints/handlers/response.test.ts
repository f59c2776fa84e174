// Encoding objects of any depth: one stored deeper than kapi accepts today (by an older build)
// must still be listed and watched, never overflow the stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as yamlParse } from 'yaml';
import { JSON_TARGET, type Target } from '../negotiation.ts';
import { encode } from './response.ts';

const YAML_TARGET: Target = { format: 'yaml', shape: 'object', apiVersion: '', contentType: 'application/yaml' };

function nest(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

test('objects of any depth encode as JSON and YAML', () => {
  const cases = [
    { name: 'json shallow', target: JSON_TARGET, levels: 3, want: '{"a":{"a":{"a":"leaf"}}}' },
    { name: 'yaml shallow, go-yaml block style', target: YAML_TARGET, levels: 2, want: 'a:\n  a: leaf\n' },
    { name: 'json 100k', target: JSON_TARGET, levels: 100_000, want: `${'{"a":'.repeat(100_000)}"leaf"${'}'.repeat(100_000)}` },
    { name: 'yaml 100k, as a flow (JSON) document', target: YAML_TARGET, levels: 100_000, want: `${'{"a":'.repeat(100_000)}"leaf"${'}'.repeat(100_000)}\n` },
  ];
  for (const c of cases) assert.equal(encode({ ...(nest(c.levels) as object) }, c.target), c.want, c.name);
  // Between the block writer's safe depth and the cap: still YAML with the same content.
  const mid = nest(400);
  assert.deepEqual(yamlParse(encode(mid, YAML_TARGET) as string), mid);
});
