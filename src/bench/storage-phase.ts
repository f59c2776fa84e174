// The cost of kube's storage encoding and of encryption at rest, in this process (no HTTP, no
// backend): a write (encode, then transform to storage) and a read (transform from storage, then
// decode) of a typical Pod, per second. Baselines, measured in the same run: JSON storage for the
// protobuf figure, identity (no encryption) for the aescbc, aesgcm, secretbox and KMS v2 figures
// (KMS v2 with the tests' in-process gRPC plugin: one DEK, so per object only AES-GCM and the
// envelope's framing are paid, as in kube).
// No Go counterpart: the bench.
import { performance } from 'node:perf_hooks';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { PROTOBUF_MEDIA_TYPE } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { cbcTransformer, gcmTransformer } from '../storage/value/aes.ts';
import { KmsV2Client, KmsV2Envelope } from '../storage/value/kmsv2.ts';
import { secretboxTransformer } from '../storage/value/secretbox.ts';
import { startTestKmsPlugin } from '../storage/value/testing/kms-plugin.ts';
import { identityTransformer, prefixTransformers, type Transformer } from '../storage/value/transformer.ts';
import { decodeValue, encodeValue, type StorageMediaType } from '../storage/value-codec.ts';
import { figure, type Figure } from './report.ts';
import { median } from './stats.ts';

const DURATION_MS = 1_000;
const ROUNDS = 5;
const KEY = '/registry/pods/bench/web-0';

const POD = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'bench', uid: '6f1d2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b', resourceVersion: '12345',
    creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7d4b9c' },
    annotations: { 'kubernetes.io/config.seen': '2026-01-01T00:00:00Z' } },
  spec: { nodeName: 'node-1', restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler',
    containers: [{ name: 'web', image: 'registry.example.com/web:1.2.3', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
      env: [{ name: 'MODE', value: 'production' }, { name: 'LOG_LEVEL', value: 'info' }],
      resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }] },
  status: { phase: 'Running', podIP: '10.0.0.12', hostIP: '192.168.1.10', startTime: '2026-01-01T00:00:01Z' },
} as unknown as KubeObject;

/** Writes and reads of the Pod per second through one encoding and one transformer. */
async function roundTrips(media: StorageMediaType, t: Transformer): Promise<number> {
  let ops = 0;
  const start = performance.now();
  while (performance.now() - start < DURATION_MS) {
    const stored = await t.toStorage(Buffer.from(encodeValue(POD, media), 'latin1'), KEY);
    const read = await t.fromStorage(stored, KEY);
    decodeValue(read.data.toString('latin1'));
    ops++;
  }
  return ops / ((performance.now() - start) / 1000);
}

const keyed = (prefix: string, t: Transformer): Transformer => prefixTransformers('no matching prefix found', [{ prefix: Buffer.from(prefix), transformer: t }]);

/** The storage phase's figures: storage-protobuf (baseline JSON) and storage-<provider> (baseline identity). */
export async function measureStorage(log: (m: string) => void): Promise<Figure[]> {
  const plugin = await startTestKmsPlugin();
  const kms = new KmsV2Envelope('bench', new KmsV2Client(plugin.endpoint, 3_000));
  try {
    const providers: [name: 'aescbc' | 'aesgcm' | 'secretbox' | 'kms-v2', t: Transformer][] = [
      ['aescbc', keyed('k8s:enc:aescbc:v1:key1:', cbcTransformer(Buffer.alloc(32, 7)))],
      ['aesgcm', keyed('k8s:enc:aesgcm:v1:key1:', gcmTransformer(Buffer.alloc(32, 7)))],
      ['secretbox', keyed('k8s:enc:secretbox:v1:key1:', secretboxTransformer(Buffer.alloc(32, 7)))],
      ['kms-v2', keyed('k8s:enc:kms:v2:bench:', kms)],
    ];
    const runs = { json: [] as number[], protobuf: [] as number[], identity: [] as number[], ...Object.fromEntries(providers.map(([n]) => [n, [] as number[]])) } as Record<string, number[]>;
    // Alternating rounds, the median of each: the machine's other work varies.
    for (let r = 0; r < ROUNDS; r++) {
      runs['json']?.push(await roundTrips('application/json', identityTransformer));
      runs['protobuf']?.push(await roundTrips(PROTOBUF_MEDIA_TYPE, identityTransformer));
      runs['identity']?.push(await roundTrips(PROTOBUF_MEDIA_TYPE, identityTransformer));
      for (const [name, t] of providers) runs[name]?.push(await roundTrips(PROTOBUF_MEDIA_TYPE, t));
      log(`storage: round ${r + 1}/${ROUNDS}`);
    }
    const m = (k: string): number => median(runs[k] ?? []);
    return [
      figure('storage-protobuf', 'ops/s', m('protobuf'), m('json')),
      ...providers.map(([name]) => figure(`storage-${name}`, 'ops/s', m(name), m('identity'))),
    ];
  } finally {
    kms.stopPolling();
    kms.client.close();
    await plugin.stop();
  }
}
