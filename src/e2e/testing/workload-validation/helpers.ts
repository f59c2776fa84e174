// Builders for the workload validation corpus: a valid object per resource, and cases that create
// it with one fault (dry run), or create it valid and then change it by a merge patch of the object,
// its status or its scale subresource (the last answer counts).
// No Go counterpart: the e2e test harness.
import { patch, post, put, type ValidationCase } from '../validation-differential.ts';
import type { RawRequest } from '../https-client.ts';

export type Obj = Record<string, unknown>;

/** A resource of the corpus: its collection path and a valid object of it. */
export interface Res {
  readonly collection: (ns: string) => string;
  readonly valid: (name: string) => Obj;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON merge patch applied locally: objects merge, null deletes, everything else replaces. */
export function merge(base: Obj, over: Obj): Obj {
  const out: Obj = structuredClone(base);
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else if (isObj(v) && isObj(out[k])) out[k] = merge(out[k] as Obj, v);
    else out[k] = structuredClone(v);
  }
  return out;
}

export const TEMPLATE: Obj = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };

const apps = (resource: string, kind: string, spec: Obj): Res => ({
  collection: (ns) => `/apis/apps/v1/namespaces/${ns}/${resource}`,
  valid: (name) => ({ apiVersion: 'apps/v1', kind, metadata: { name }, spec: structuredClone(spec) }),
});

export const DEPLOYMENT = apps('deployments', 'Deployment', { selector: { matchLabels: { app: 'a' } }, template: TEMPLATE });
export const REPLICASET = apps('replicasets', 'ReplicaSet', { selector: { matchLabels: { app: 'a' } }, template: TEMPLATE });
export const STATEFULSET = apps('statefulsets', 'StatefulSet', { serviceName: 'svc', selector: { matchLabels: { app: 'a' } }, template: TEMPLATE });
export const DAEMONSET = apps('daemonsets', 'DaemonSet', { selector: { matchLabels: { app: 'a' } }, template: TEMPLATE });
export const CONTROLLERREVISION: Res = {
  collection: (ns) => `/apis/apps/v1/namespaces/${ns}/controllerrevisions`,
  valid: (name) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { a: 1 }, revision: 1 }),
};

const JOB_SPEC: Obj = { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } };
export const JOB: Res = {
  collection: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`,
  valid: (name) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: structuredClone(JOB_SPEC) }),
};
export const CRONJOB: Res = {
  collection: (ns) => `/apis/batch/v1/namespaces/${ns}/cronjobs`,
  valid: (name) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: structuredClone(JOB_SPEC) } } }),
};
const hpa = (version: 'v1' | 'v2', spec: Obj): Res => ({
  collection: (ns) => `/apis/autoscaling/${version}/namespaces/${ns}/horizontalpodautoscalers`,
  valid: (name) => ({ apiVersion: `autoscaling/${version}`, kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: structuredClone(spec) }),
});
const TARGET = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' };
export const HPA_V2 = hpa('v2', { scaleTargetRef: TARGET, minReplicas: 1, maxReplicas: 3 });
export const HPA_V1 = hpa('v1', { scaleTargetRef: TARGET, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
export const PDB: Res = {
  collection: (ns) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`,
  valid: (name) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'a' } } } }),
};

/** A create (dry run) of the valid object with `over` merged in. */
export const create = (r: Res, over: Obj = {}) => (name: string, ns: string): RawRequest[] =>
  [post(`${r.collection(ns)}?dryRun=All`, merge(r.valid(name), over))];

/**
 * Creates the valid object (with `initial` merged in), then sends each merge patch in turn to the
 * object or a subresource ('' for the object itself).
 */
export const update = (r: Res, initial: Obj, ...patches: readonly (readonly [sub: '' | 'status' | 'scale', body: Obj])[]) =>
  (name: string, ns: string): RawRequest[] => [
    post(r.collection(ns), merge(r.valid(name), initial)),
    ...patches.map(([sub, body]) => patch(`${r.collection(ns)}/${name}${sub === '' ? '' : `/${sub}`}`, body)),
  ];

/** Creates the valid object, then PUTs an autoscaling/v1 Scale with `spec` (and `metadata` merged). */
export const putScale = (r: Res, spec: Obj, metadata: Obj = {}) => (name: string, ns: string): RawRequest[] => [
  post(r.collection(ns), r.valid(name)),
  put(`${r.collection(ns)}/${name}/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: ns, ...metadata }, spec }),
];

export const c = (name: string, requests: ValidationCase['requests']): ValidationCase => ({ name, requests });
