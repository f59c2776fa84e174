// Objects of many built-in kinds, one each, for end-to-end tests that send the same creates and
// updates to kapi and kube-apiserver (what admission webhooks receive of each).
// No Go counterpart: test data.
type Json = Record<string, unknown>;

/** [collection path, object] pairs in namespace `ns`, every object labelled with `labels`. */
export function kindsObjects(ns: string, labels: Json): [string, Json][] {
  const tmpl = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  return [
    [`/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', labels }, spec: { ports: [{ port: 80 }] } }],
    [`/api/v1/namespaces/${ns}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc', labels },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    [`/api/v1/namespaces/${ns}/replicationcontrollers`, { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc', labels },
      spec: { selector: { a: 'b' }, template: tmpl } }],
    ['/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'kinds-node', labels } }],
    [`/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec', labels } }],
    [`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kinds-sa', labels } }],
    [`/apis/apps/v1/namespaces/${ns}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep', labels },
      spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl } }],
    [`/apis/apps/v1/namespaces/${ns}/statefulsets`, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'sts', labels },
      spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl } }],
    [`/apis/apps/v1/namespaces/${ns}/daemonsets`, { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds', labels },
      spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl } }],
    [`/apis/batch/v1/namespaces/${ns}/jobs`, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job', labels },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }],
    [`/apis/batch/v1/namespaces/${ns}/cronjobs`, { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cj', labels },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } } }],
    [`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'hpa', labels },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'dep' }, maxReplicas: 3 } }],
    [`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb', labels } }],
    [`/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np', labels } }],
    [`/apis/networking.k8s.io/v1/namespaces/${ns}/ingresses`, { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'ing', labels },
      spec: { defaultBackend: { service: { name: 'svc', port: { number: 80 } } } } }],
    [`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lease', labels } }],
    ['/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'kinds-pc', labels }, value: 10 }],
  ];
}
