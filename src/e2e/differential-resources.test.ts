// Differential tests generated for every resource kapi and the reference kube-apiserver both serve
// with default flags (built-in resources with their status and scale subresources, and a custom
// resource of a CRD with both): the core cases of testing/diff-corpus.ts on every resource, the
// full option matrix of testing/diff-matrix.ts on a few representative ones. Every difference
// must be listed in testing/intended-differences.ts (intended, or a known defect with its issue).
// Skipped, with the reason, when the oracle is not built on this machine.
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  agreementSummary, agreementTable, describeDifferences, runCases, unusedEntries, type CaseResult, type DiffCase,
} from './testing/differential.ts';
import { intendedDifferences, knownDefects } from './testing/intended-differences.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { generateMaterial, type FixtureMaterial } from './testing/fixtures/every-resource.ts';
import { commonResources, OpenAPIDocuments, servedResources, targetFor, type Send, type Target } from './testing/diff-resources.ts';
import { coreCases } from './testing/diff-corpus.ts';
import { matrixCases, MATRIX_RESOURCES } from './testing/diff-matrix.ts';

const USER_AGENT = 'kapi-differential/v0.0.0 (linux/amd64) kubernetes/none';
/** Targets run this many at a time (each one's cases in order): the watches wait out their timeoutSeconds. */
const CONCURRENCY = 4;
const GROUP = 'diffres.example.com';

/** A custom resource with status and scale subresources, required and enum properties. */
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      schema: {
        openAPIV3Schema: {
          type: 'object', required: ['spec'],
          properties: {
            spec: {
              type: 'object', required: ['size'],
              properties: {
                size: { type: 'string', enum: ['small', 'large'] },
                replicas: { type: 'integer', minimum: 0, default: 1 },
                note: { type: 'string', maxLength: 30 },
              },
            },
            status: { type: 'object', properties: { replicas: { type: 'integer' } } },
          },
        },
      },
    }],
  },
};

/** Objects other cases need, created on both servers without comparison. */
async function prepare(send: Send, path: string, body: unknown): Promise<void> {
  const r = await send({ method: 'POST', path, body: JSON.stringify(body) });
  assert.ok(r.status === 201 || r.status === 409, `prepare POST ${path}: ${r.status} ${r.text}`);
}

describe('kapi against the reference kube-apiserver, for every served resource', { skip: oracleUnavailable() ?? false }, () => {
  let kapi: Suite;
  let oracle: Oracle;
  let material: FixtureMaterial;
  const results: CaseResult[] = [];
  const targets: Target[] = [];
  const only: { kapi: string[]; oracle: string[] } = { kapi: [], oracle: [] };

  before(async () => {
    const [k, o, m] = await Promise.allSettled([startSuite(), startOracle(), generateMaterial()]);
    if (k.status === 'fulfilled') kapi = k.value;
    if (o.status === 'fulfilled') oracle = o.value;
    if (k.status === 'rejected') throw k.reason;
    if (o.status === 'rejected') throw o.reason;
    if (m.status === 'rejected') throw m.reason;
    material = m.value;
    const servers = [kapi.request, oracle.request];
    for (const send of servers) await prepare(send, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD);
    for (const send of servers) {
      await eventually('widgets served', async () => ((await send({ method: 'GET', path: `/apis/${GROUP}/v1/widgets` })).status === 200 ? true : undefined));
      // The OpenAPI of a new CRD is published a moment after it is served.
      await eventually('widgets in /openapi/v3', async () => ((await send({ method: 'GET', path: '/openapi/v3' })).text.includes(`apis/${GROUP}/v1`) ? true : undefined));
    }
    const [ks, os] = await Promise.all([servedResources(kapi.request), servedResources(oracle.request)]);
    const { common, onlyKapi, onlyOracle } = commonResources(ks, os);
    only.kapi = onlyKapi;
    only.oracle = onlyOracle;
    // kapi's documents: the every-resource hints are written (and checked daily) against them.
    const openapi = new OpenAPIDocuments(kapi.request);
    for (const [i, r] of common.entries()) targets.push(await targetFor(r, openapi, material, `d-${i}`));
    // One namespace per target; the oracle runs no serviceaccounts controller, so its pods need the default account made.
    for (const t of targets) {
      if (!t.namespaced) continue;
      for (const send of servers) await prepare(send, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: t.namespace } });
      await eventually(`default service account in ${t.namespace}`, async () =>
        ((await kapi.request({ method: 'GET', path: `/api/v1/namespaces/${t.namespace}/serviceaccounts/default` })).status === 200 ? true : undefined));
      await prepare(oracle.request, `/api/v1/namespaces/${t.namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
      for (const pre of t.hint.prerequisites?.({ name: t.name, namespace: t.namespace, material }) ?? []) {
        for (const send of servers) await prepare(send, pre.path, pre.body);
      }
    }
  });

  after(async () => {
    const dump = process.env['KAPI_DIFF_DUMP'];
    // Every difference, for triage: KAPI_DIFF_DUMP=<file>.
    if (dump !== undefined && dump !== '') {
      writeFileSync(dump, JSON.stringify(results.flatMap((r) => r.unexpected.concat(r.known)), null, 1));
      writeFileSync(`${dump}.codes`, results.map((r) => `${r.c.resource} ${r.c.verb} ${r.c.name}\t${r.codes.kapi}\t${r.codes.oracle}`).join('\n'));
    }
    if (results.length > 0) {
      const known = results.flatMap((r) => r.known);
      const unused = unusedEntries(results, [...intendedDifferences, ...knownDefects]);
      console.log([
        `\nkapi vs kube-apiserver ${oracle.version}, every served resource:`, agreementTable(results), agreementSummary(results),
        `served by kapi only: ${only.kapi.join(', ') || '(none)'}; by the oracle only: ${only.oracle.join(', ') || '(none)'}`,
        ...(process.env['KAPI_DIFF_VERBOSE'] === '1' && known.length > 0 ? ['known defects seen:', describeDifferences(known)] : []),
        ...unused.map((e) => `listed but not seen here: ${String(e.cases)} ${String(e.where)}`),
      ].join('\n'));
    }
    await Promise.all([kapi?.close(), oracle?.stop()]);
  });

  /** Runs each target's cases in order, CONCURRENCY targets at a time. */
  async function runAll(perTarget: (t: Target) => readonly DiffCase[], which: readonly Target[]): Promise<CaseResult[]> {
    const out: CaseResult[] = [];
    const queue = [...which];
    const worker = async (): Promise<void> => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) {
        out.push(...await runCases(perTarget(t), kapi.request, oracle.request, USER_AGENT));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    results.push(...out);
    return out;
  }
  const assertAgree = (rs: readonly CaseResult[]): void => {
    const unexpected = rs.flatMap((r) => r.unexpected);
    assert.equal(unexpected.length, 0, `unexpected differences:\n${describeDifferences(unexpected)}`);
  };

  it('serves the same resources as the oracle', () => {
    assert.ok(targets.length > 50, `only ${targets.length} resources in common`);
    assert.deepEqual({ kapi: only.kapi, oracle: only.oracle }, { kapi: [], oracle: [] });
  });

  it('agrees on the core cases of every resource', async () => {
    assertAgree(await runAll(coreCases, targets));
  });

  it('agrees on the full option matrix of the representative resources', async () => {
    const reps = targets.filter((t) => MATRIX_RESOURCES.includes(t.key));
    assert.equal(reps.length, MATRIX_RESOURCES.length, `representative resources served: ${reps.map((t) => t.key).join(', ')}`);
    assertAgree(await runAll(matrixCases, reps));
  });
});
