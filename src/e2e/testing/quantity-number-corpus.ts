// Quantities sent as JSON numbers (issue 12): Quantity.UnmarshalJSON parses the number's raw text,
// so kube keeps "1e21" and "1E3" where a float would print "1e+21" and "1000". One case per number
// on a container limit, and a few on the other built-in types holding a resource.Quantity
// (LimitRange, ResourceQuota, PVC requests, CSIStorageCapacity). The bodies are raw JSON text:
// JSON.stringify would rewrite the numbers before they are sent. Also: huge negative exponents, and
// the v2 metrics an autoscaling/v1 HPA carries in annotations, whose quantities kube decodes too.
// No Go counterpart: the e2e test harness.
import type { RawRequest } from './https-client.ts';
import type { ValidationCase } from './validation-differential.ts';

type Obj = Record<string, unknown>;
const N = '"@NUMBER@"';

/** POSTs body with the placeholder string replaced by the number's literal text. */
const postNumber = (path: string, body: Obj, literal: string): RawRequest =>
  ({ method: 'POST', path, body: JSON.stringify(body).replace(JSON.stringify(N.slice(1, -1)), literal), contentType: 'application/json' });

const at = (o: Obj, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (v as Obj | undefined)?.[k], o);

const NUMBERS = ['1e21', '1E3', '0.1', '1.0', '-0', '12345678901234567890', '1e-9', '2.5e3', '1e400'];
// huge negative exponents as strings: kube answers these (the value rounds up to a nano-unit)
const HUGE = ['"1e-100001"', '"1e-1000000"', '"5e-100000"'];

const podCase = (literal: string): ValidationCase => ({
  name: `pod memory limit ${literal}`,
  requests: (name, ns) => [postNumber(`/api/v1/namespaces/${ns}/pods`, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name },
    spec: { containers: [{ name: 'c', image: 'busybox', resources: { limits: { memory: N.slice(1, -1) } } }] },
  }, literal)],
  keep: (o) => at(o, 'spec', 'containers', '0', 'resources'),
});

const limitRange = (literal: string): ValidationCase => ({
  name: `limitrange max memory ${literal}`,
  requests: (name, ns) => [postNumber(`/api/v1/namespaces/${ns}/limitranges`, {
    apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', max: { memory: N.slice(1, -1) } }] },
  }, literal)],
  keep: (o) => at(o, 'spec'),
});

const quota = (literal: string): ValidationCase => ({
  name: `resourcequota hard memory ${literal}`,
  requests: (name, ns) => [postNumber(`/api/v1/namespaces/${ns}/resourcequotas`, {
    apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { 'requests.memory': N.slice(1, -1) } },
  }, literal)],
  keep: (o) => at(o, 'spec'),
});

const pvc = (literal: string): ValidationCase => ({
  name: `pvc storage request ${literal}`,
  requests: (name, ns) => [postNumber(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: N.slice(1, -1) } } },
  }, literal)],
  keep: (o) => at(o, 'spec', 'resources'),
});

const capacity = (literal: string): ValidationCase => ({
  name: `csistoragecapacity capacity ${literal}`,
  requests: (name, ns) => [postNumber(`/apis/storage.k8s.io/v1/namespaces/${ns}/csistoragecapacities`, {
    apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name }, storageClassName: 'sc', capacity: N.slice(1, -1),
  }, literal)],
  keep: (o) => at(o, 'capacity'),
});

export const QUANTITY_NUMBER_CASES: readonly ValidationCase[] = [
  ...[...NUMBERS, ...HUGE].map(podCase),
  ...['1e21', '1E3', '12345678901234567890'].map(limitRange),
  ...['1e21', '1E3', '12345678901234567890'].map(quota),
  ...['1e21', '1E3', '0.1'].map(pvc),
  ...['1e21', '1E3', '12345678901234567890'].map(capacity),
];

const M = 'autoscaling.alpha.kubernetes.io/metrics';
const CUR = 'autoscaling.alpha.kubernetes.io/current-metrics';
const hpa = (name: string, annotations: Record<string, string>): Obj => ({
  apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name, annotations },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, minReplicas: 1, maxReplicas: 3 },
});
const hpaPath = (ns: string): string => `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const hpaCase = (name: string, annotations: Record<string, string>): ValidationCase => ({
  name: `hpa v1 ${name}`,
  requests: (n, ns) => [{ method: 'POST', path: hpaPath(ns), body: JSON.stringify(hpa(n, annotations)), contentType: 'application/json' }],
  keep: (o) => ({ annotations: at(o, 'metadata', 'annotations'), spec: at(o, 'spec') }),
});
const res = (q: string): string => `[{"type":"Resource","resource":{"name":"memory","targetAverageValue":${q}}}]`;

/** The v2 metrics an autoscaling/v1 HPA carries in annotations: decoded with their quantities, or ignored. */
export const HPA_ANNOTATION_CASES: readonly ValidationCase[] = [
  hpaCase('metric quantity malformed: annotation ignored', { [M]: res('"bogus"') }),
  hpaCase('metric quantity bad suffix: annotation ignored', { [M]: '[{"type":"Pods","pods":{"metricName":"m","targetAverageValue":"1x"}}]' }),
  hpaCase('metric quantity negative: refused by validation', { [M]: res('"-1"') }),
  hpaCase('metric quantity 1.5 canonical', { [M]: res('"1.5"') }),
  hpaCase('metric quantity 1E3 kept', { [M]: res('"1E3"') }),
  hpaCase('one good and one malformed: all ignored', { [M]: `[{"type":"Resource","resource":{"name":"cpu","targetAverageValue":"1"}},${res('"x"').slice(1)}` }),
  hpaCase('a non-object entry beside a good one', { [M]: `[1,${res('"1Gi"').slice(1)}` }),
  hpaCase('an entry with a field of another type beside a good one', { [M]: `[{"type":"Resource","resource":{"name":5}},${res('"1Gi"').slice(1)}` }),
  hpaCase('current metric quantity malformed: annotation ignored', { [CUR]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageValue":"bogus"}}]' }),
  {
    name: 'hpa v1 update with a malformed metric quantity',
    requests: (n, ns) => [
      { method: 'POST', path: hpaPath(ns), body: JSON.stringify(hpa(n, { [M]: res('"1Gi"') })), contentType: 'application/json' },
      (prev) => {
        const o = prev.json() as Obj;
        (o['metadata'] as Obj)['annotations'] = { [M]: res('"1Gx"') };
        return { method: 'PUT', path: `${hpaPath(ns)}/${n}`, body: JSON.stringify(o), contentType: 'application/json' };
      },
    ],
    keep: (o) => ({ annotations: at(o, 'metadata', 'annotations'), spec: at(o, 'spec') }),
  },
];
