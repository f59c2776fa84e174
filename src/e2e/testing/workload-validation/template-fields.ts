// The pod template of every workload drops the fields whose feature gates are off in v1.36
// (DropDisabledTemplateFields in pkg/api/pod/util.go, called by each strategy's PrepareForCreate and
// PrepareForUpdate): ClusterTrustBundleProjection, PodCertificateRequest, GenericWorkload and
// ContainerStopSignals. Each case keeps the template's spec of the answer, so a field kapi stores
// and kube drops shows as a difference.
// No Go counterpart: the e2e test harness.
import { patch, post, type ValidationCase } from '../validation-differential.ts';
import { CRONJOB, DAEMONSET, DEPLOYMENT, JOB, REPLICASET, STATEFULSET, merge, type Obj, type Res } from './helpers.ts';

/** A pod spec using every gated field (the gated projections come out as empty sources). */
const GATED: Obj = {
  schedulingGroup: { podGroupName: 'g' },
  containers: [{ name: 'c', image: 'busybox', lifecycle: { stopSignal: 'SIGTERM' } }],
  // a sidecar may have a lifecycle: only its stopSignal goes
  initContainers: [{ name: 'i', image: 'busybox', restartPolicy: 'Always', lifecycle: { stopSignal: 'SIGTERM', preStop: { sleep: { seconds: 1 } } } }],
  volumes: [{ name: 'v', projected: { sources: [
    { clusterTrustBundle: { signerName: 'example.com/s', path: 'b' } },
    { podCertificate: { signerName: 'example.com/s', keyType: 'ED25519', credentialBundlePath: 'c' } },
    { configMap: { name: 'cm' } },
  ] } }],
};

const RC: Res = {
  collection: (ns) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
  valid: (name) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name }, spec: { selector: { app: 'a' },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } } }),
};
const POD_TEMPLATE: Res = {
  collection: (ns) => `/api/v1/namespaces/${ns}/podtemplates`,
  valid: (name) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } }),
};

interface Kind { readonly name: string; readonly res: Res; readonly at: readonly string[] }
const KINDS: readonly Kind[] = [
  { name: 'Deployment', res: DEPLOYMENT, at: ['spec', 'template', 'spec'] },
  { name: 'ReplicaSet', res: REPLICASET, at: ['spec', 'template', 'spec'] },
  { name: 'StatefulSet', res: STATEFULSET, at: ['spec', 'template', 'spec'] },
  { name: 'DaemonSet', res: DAEMONSET, at: ['spec', 'template', 'spec'] },
  { name: 'Job', res: JOB, at: ['spec', 'template', 'spec'] },
  { name: 'CronJob', res: CRONJOB, at: ['spec', 'jobTemplate', 'spec', 'template', 'spec'] },
  { name: 'ReplicationController', res: RC, at: ['spec', 'template', 'spec'] },
  { name: 'PodTemplate', res: POD_TEMPLATE, at: ['template', 'spec'] },
];

/** `value` nested under the path `at`: a merge patch or an object to merge. */
const nested = (at: readonly string[], value: Obj): Obj => at.reduceRight<Obj>((inner, k) => ({ [k]: inner }), value);
const dig = (o: Obj, at: readonly string[]): unknown => at.reduce<unknown>((cur, k) => (cur as Obj | undefined)?.[k], o);
/** The gated fields' places in the template spec of an answer. */
const gatedParts = (at: readonly string[]) => (o: Obj): unknown => {
  const spec = dig(o, at) as Obj | undefined;
  return { schedulingGroup: spec?.['schedulingGroup'] ?? null, containers: spec?.['containers'] ?? null,
    initContainers: spec?.['initContainers'] ?? null, volumes: spec?.['volumes'] ?? null };
};

export const TEMPLATE_FIELD_CASES: readonly ValidationCase[] = KINDS.flatMap((k): ValidationCase[] => [
  { name: `${k.name}: template gated fields dropped on create`, keep: gatedParts(k.at),
    requests: (n, ns) => [post(k.res.collection(ns), merge(k.res.valid(n), nested(k.at, GATED)))] },
  { name: `${k.name}: template gated fields dropped on update`, keep: gatedParts(k.at),
    requests: (n, ns) => [post(k.res.collection(ns), k.res.valid(n)), patch(`${k.res.collection(ns)}/${n}`, nested(k.at, GATED))] },
]);
