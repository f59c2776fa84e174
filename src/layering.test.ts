// Imports point downwards only: a layer may import its own folder and the layers below it
// (ARCHITECTURE.md). This test reads every source file and checks each relative import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Lower rank = lower layer. Layers of equal rank may not import each other. */
const RANK: Readonly<Record<string, number>> = {
  generated: 0, apimachinery: 1, storage: 2, client: 2.5, registry: 3, admission: 3, authn: 3, authz: 3, endpoints: 4, server: 5,
  apis: 6, apiextensions: 6, aggregator: 6, controlplane: 7, cli: 8, 'index.ts': 8.5, oracle: 8.7, bench: 9, e2e: 9, 'layering.test.ts': 9,
};

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const layerOf = (file: string): string => relative(SRC, file).split('/')[0] ?? '';

test('every relative import points to the same layer or a lower one', () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const from = layerOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)[^'"]*from\s+'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), m[1] ?? '');
      const to = layerOf(target);
      if (to === from) continue;
      const rf = RANK[from];
      const rt = RANK[to];
      assert.ok(rf !== undefined, `unknown layer ${from}: add it to RANK`);
      assert.ok(rt !== undefined, `unknown layer ${to}: add it to RANK`);
      if (rt >= rf) violations.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
    }
  }
  assert.deepEqual(violations, []);
});
