// kube's own PodSecurity fixtures (k8s.io/pod-security-admission@v0.36.3/test/testdata, pods that
// each level and version must allow or refuse) read from the Go module cache and evaluated here.
// Skips, saying why, when Go or the module is not on the machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Pod } from '../../../../generated/types/corev1.gen.ts';
import { parseLevel, parseVersion } from '../api.ts';
import { aggregate, Evaluator } from './registry.ts';

const MODULE = 'k8s.io/pod-security-admission@v0.36.3';

function testdata(): string | undefined {
  try {
    const cache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
    const dir = join(cache, MODULE, 'test', 'testdata');
    return existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const dir = testdata();
const skip = dir === undefined ? `${MODULE} is not in the Go module cache (go mod download ${MODULE.replace('@', '@')})` : false;

test('kube fixtures: every pass pod is allowed and every fail pod refused, at each level and version', { skip }, (t) => {
  if (dir === undefined) return;
  const evaluator = new Evaluator();
  const wrong: string[] = [];
  let count = 0;
  for (const level of ['baseline', 'restricted']) {
    for (const version of readdirSync(join(dir, level))) {
      const lv = { level: parseLevel(level).level, version: parseVersion(version).version };
      for (const outcome of ['pass', 'fail']) {
        const sub = join(dir, level, version, outcome);
        if (!existsSync(sub)) continue;
        for (const file of readdirSync(sub)) {
          const pod = parse(readFileSync(join(sub, file), 'utf8')) as Pod;
          // The API server defaults a volume without a source to an emptyDir before admission.
          for (const v of pod.spec?.volumes ?? []) if (Object.keys(v).length === 1) v.emptyDir = {};
          const r = aggregate(evaluator.evaluatePod(lv, pod.metadata ?? {}, pod.spec ?? { containers: [] }));
          count++;
          if (r.allowed !== (outcome === 'pass')) wrong.push(`${level}/${version}/${outcome}/${file}: ${r.reasons.join(', ') || 'allowed'}`);
        }
      }
    }
  }
  t.diagnostic(`${count} kube fixtures evaluated`);
  assert.ok(count > 1000, `expected kube's fixtures, found ${count}`);
  assert.deepEqual(wrong, []);
});
