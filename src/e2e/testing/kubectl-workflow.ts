// The kubectl workflow the differential test runs against kapi and the oracle: a multi-document
// manifest applied, diffed and applied server-side, then each kind of kubectl command in turn.
// `core` steps run with every kubectl version, the rest with the newest ones only.
// No Go counterpart: the e2e test harness.
import type { KubectlStep } from './kubectl-differential.ts';

const manifest = (replicas: number, image: string, extra = ''): string => `apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, labels: {app: kd}}
data: {mode: "blue", size: "${replicas}"${extra}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: kd}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: ${image}
        ports: [{containerPort: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: web, labels: {app: kd}}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: app-sa, labels: {app: kd}}
---
apiVersion: v1
kind: Secret
metadata: {name: app-secret, labels: {app: kd}}
stringData: {password: hunter2}
`;

const ssaManifest = `apiVersion: v1
kind: ConfigMap
metadata: {name: ssa-config, labels: {app: kd-ssa}}
data: {owner: ssa}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data: {ssa: "yes"}
`;

const node = `apiVersion: v1
kind: Node
metadata: {name: kd-node-{v}, labels: {kd: "{v}"}}
spec: {}
`;

const event = `apiVersion: v1
kind: Event
metadata: {name: kd-event}
involvedObject: {apiVersion: v1, kind: ConfigMap, name: app-config, namespace: {ns}}
reason: Checked
message: looked at by the differential test
type: Normal
count: 1
firstTimestamp: "2026-01-02T03:04:05Z"
lastTimestamp: "2026-01-02T03:04:05Z"
source: {component: kd}
`;

const reconcileRBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: kd-reconciled, namespace: {ns}}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: kd-reconciled, namespace: {ns}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: kd-reconciled}
subjects: [{kind: ServiceAccount, name: app-sa, namespace: {ns}}]
`;


const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets{v}.kd.example.com}
spec:
  group: kd.example.com
  names: {plural: widgets{v}, singular: widget{v}, kind: Widget{v}, shortNames: [wd{v}]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, enum: [red, blue]}
              replicas: {type: integer}
          status:
            type: object
            properties:
              replicas: {type: integer}
`;

const widget = (size: number, color: string): string => `apiVersion: kd.example.com/v1
kind: Widget{v}
metadata: {name: w1}
spec: {size: ${size}, color: ${color}, replicas: 1}
`;

const replaced = `apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, labels: {app: kd}}
data: {replaced: "yes"}
`;

/** The CSR's PEM, base64, is written by the test into {dir}/csr.b64 and substituted by `csr`. */
export const csrManifest = (requestB64: string): string => `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata: {name: kd-csr-{v}}
spec:
  request: ${requestB64}
  signerName: kubernetes.io/kube-apiserver-client
  usages: [client auth]
`;

const ns = ['-n', '{ns}'];
/** The pod-template-hash in the names of the `web` Deployment's ReplicaSets and pods (SafeEncodeString's alphabet). */
const WEB_TEMPLATE_HASH = /\b(web-)[bcdfghjklmnpqrstvwxz2456789]{4,10}(?=\b)/g;
const get = (name: string, args: readonly string[], core = false): KubectlStep => ({ name: `get ${name}`, args: ['get', ...args, ...ns], core });

/**
 * Waits (not compared) until the deployment controller (kube-controller-manager, on both servers)
 * has seen the Deployment's last change: it writes the ReplicaSet of a new template before it
 * records the generation it observed, so the rollout history is complete after this.
 */
const observed = (name: string): KubectlStep => ({
  name, args: ['get', 'deploy', 'web', '-o', 'jsonpath={.metadata.generation} {.status.observedGeneration}', ...ns],
  settled: (r) => /^(\d+) \1$/.test(r.stdout.trim()), compare: false, core: true,
});

export function workflow(csrB64: string): KubectlStep[] {
  return [
    { name: 'create namespace', args: ['create', 'namespace', '{ns}'], core: true },
    { name: 'apply multi-document', args: ['apply', '-f', '-', ...ns], stdin: manifest(2, 'nginx:1.25'), core: true },
    { name: 'apply unchanged', args: ['apply', '-f', '-', ...ns], stdin: manifest(2, 'nginx:1.25'), core: true },
    { name: 'diff changed', args: ['diff', '-f', '-', ...ns], stdin: manifest(3, 'nginx:1.26', ', extra: "x"'), core: true },
    { name: 'apply dry-run=server', args: ['apply', '--dry-run=server', '-f', '-', ...ns], stdin: manifest(3, 'nginx:1.26'), core: true },
    { name: 'apply dry-run=client', args: ['apply', '--dry-run=client', '-o', 'yaml', '-f', '-', ...ns], stdin: manifest(3, 'nginx:1.26') },
    { name: 'apply server-side', args: ['apply', '--server-side', '--field-manager=kd', '-f', '-', ...ns], stdin: ssaManifest, core: true },
    { name: 'apply server-side conflict', args: ['apply', '--server-side', '-f', '-', ...ns],
      stdin: ssaManifest.replace('{owner: ssa}', '{owner: other}') },
    { name: 'apply server-side force', args: ['apply', '--server-side', '--force-conflicts', '-f', '-', ...ns],
      stdin: ssaManifest.replace('{owner: ssa}', '{owner: other}') },
    { name: 'apply server-side dry-run', args: ['apply', '--server-side', '--dry-run=server', '-o', 'yaml', '-f', '-', ...ns], stdin: ssaManifest },
    { name: 'apply prune', args: ['apply', '--prune', '-l', 'app=kd-ssa', '--prune-allowlist=core/v1/ConfigMap', '-f', '-', ...ns],
      stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: pruned-keeper, labels: {app: kd-ssa}}\n' },
    observed('wait deployment observed'),
    get('table', ['cm,deploy,svc,sa,secret', '-l', 'app=kd'], true),
    get('wide', ['deploy,svc', '-o', 'wide']),
    get('yaml', ['cm', 'app-config', '-o', 'yaml'], true),
    get('json', ['svc', 'web', '-o', 'json']),
    get('name', ['cm,sa', '-o', 'name'], true),
    get('jsonpath', ['deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[*].image} {.metadata.labels}']),
    get('go-template', ['cm', '-l', 'app=kd', '-o', 'go-template={{range .items}}{{.metadata.name}}={{.data.mode}};{{end}}']),
    get('custom-columns', ['svc', '-o', 'custom-columns=NAME:.metadata.name,TYPE:.spec.type,PORTS:.spec.ports[*].port']),
    get('show-labels', ['cm', '--show-labels']),
    get('sort-by', ['cm', '--sort-by=.metadata.name', '-o', 'name']),
    get('watch request-timeout', ['cm', 'app-config', '-w', '--request-timeout=1s']),
    get('watch-only request-timeout', ['cm', '--watch-only', '--request-timeout=1s']),
    get('missing', ['cm', 'nope'], true),
    { name: 'label', args: ['label', 'cm', 'app-config', 'tier=front', ...ns], core: true },
    { name: 'label overwrite refused', args: ['label', 'cm', 'app-config', 'tier=back', ...ns] },
    { name: 'label remove', args: ['label', 'cm', 'app-config', 'tier-', ...ns] },
    { name: 'annotate', args: ['annotate', 'cm', 'app-config', 'note=hello', ...ns], core: true },
    { name: 'annotate overwrite', args: ['annotate', '--overwrite', 'cm', 'app-config', 'note=bye', ...ns] },
    { name: 'patch strategic', args: ['patch', 'deploy', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}', ...ns], core: true },
    { name: 'patch merge', args: ['patch', 'cm', 'app-config', '--type=merge', '-p', '{"data":{"mode":"green"}}', ...ns], core: true },
    { name: 'patch json', args: ['patch', 'cm', 'app-config', '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"1"}]', ...ns], core: true },
    { name: 'patch json bad path', args: ['patch', 'cm', 'app-config', '--type=json', '-p', '[{"op":"replace","path":"/data/none","value":"1"}]', ...ns] },
    { name: 'patch no change', args: ['patch', 'cm', 'app-config', '--type=merge', '-p', '{"data":{"mode":"green"}}', ...ns] },
    { name: 'patch dry-run', args: ['patch', 'cm', 'app-config', '--dry-run=server', '-p', '{"data":{"mode":"red"}}', '-o', 'jsonpath={.data.mode}', ...ns] },
    { name: 'scale', args: ['scale', 'deploy', 'web', '--replicas=3', ...ns], core: true },
    { name: 'scale precondition', args: ['scale', 'deploy', 'web', '--current-replicas=2', '--replicas=4', ...ns] },
    { name: 'set image', args: ['set', 'image', 'deploy/web', 'web=nginx:1.28', ...ns], core: true },
    { name: 'set env', args: ['set', 'env', 'deploy/web', 'A=1', 'B=2', ...ns] },
    { name: 'set env list', args: ['set', 'env', 'deploy/web', '--list', ...ns] },
    { name: 'set resources', args: ['set', 'resources', 'deploy/web', '--limits=cpu=200m,memory=128Mi', '--requests=cpu=100m', ...ns] },
    { name: 'set selector', args: ['set', 'selector', 'svc/web', 'app=web,tier=x', ...ns] },
    { name: 'set serviceaccount', args: ['set', 'serviceaccount', 'deploy/web', 'app-sa', ...ns] },
    observed('wait rollout observed'),
    { name: 'rollout history', args: ['rollout', 'history', 'deploy/web', ...ns], core: true },
    { name: 'rollout history revision', args: ['rollout', 'history', 'deploy/web', '--revision=2', ...ns] },
    { name: 'rollout status no-watch', args: ['rollout', 'status', 'deploy/web', '--watch=false', ...ns] },
    { name: 'rollout status timeout', args: ['rollout', 'status', 'deploy/web', '--timeout=1s', ...ns] },
    { name: 'rollout pause', args: ['rollout', 'pause', 'deploy/web', ...ns] },
    { name: 'rollout pause again', args: ['rollout', 'pause', 'deploy/web', ...ns] },
    { name: 'rollout undo paused', args: ['rollout', 'undo', 'deploy/web', ...ns] },
    { name: 'rollout resume', args: ['rollout', 'resume', 'deploy/web', ...ns] },
    { name: 'rollout undo', args: ['rollout', 'undo', 'deploy/web', '--to-revision=1', ...ns] },
    { name: 'rollout restart', args: ['rollout', 'restart', 'deploy/web', ...ns] },
    { name: 'rollout undo missing revision', args: ['rollout', 'undo', 'deploy/web', '--to-revision=99', ...ns] },
    { name: 'create configmap', args: ['create', 'configmap', 'cc', '--from-literal=a=1', '--from-literal=b=2', ...ns], core: true },
    { name: 'create configmap exists', args: ['create', 'configmap', 'cc', '--from-literal=a=1', ...ns], core: true },
    { name: 'create secret generic', args: ['create', 'secret', 'generic', 'sg', '--from-literal=k=v', ...ns], core: true },
    { name: 'create secret tls', args: ['create', 'secret', 'tls', 'st', '--cert={dir}/tls.crt', '--key={dir}/tls.key', ...ns] },
    { name: 'create secret docker-registry', args: ['create', 'secret', 'docker-registry', 'sd', '--docker-server=r.example',
      '--docker-username=u', '--docker-password=p', ...ns] },
    { name: 'create deployment', args: ['create', 'deployment', 'cd', '--image=nginx', '--replicas=2', '--port=80', ...ns], core: true },
    { name: 'create job', args: ['create', 'job', 'cj', '--image=busybox', '--', 'true', ...ns] },
    { name: 'create cronjob', args: ['create', 'cronjob', 'ccj', '--image=busybox', '--schedule=*/5 * * * *', '--', 'true', ...ns] },
    { name: 'create job from cronjob', args: ['create', 'job', 'from-cj', '--from=cronjob/ccj', ...ns] },
    { name: 'create service clusterip', args: ['create', 'service', 'clusterip', 'sc', '--tcp=80:8080', ...ns], core: true },
    { name: 'create service clusterip none', args: ['create', 'service', 'clusterip', 'sh', '--clusterip=None', '--tcp=80:8080', ...ns] },
    { name: 'create service nodeport', args: ['create', 'service', 'nodeport', 'sn', '--tcp=80:8080', ...ns] },
    { name: 'create service loadbalancer', args: ['create', 'service', 'loadbalancer', 'sl', '--tcp=80:8080', ...ns] },
    { name: 'create service externalname', args: ['create', 'service', 'externalname', 'se', '--external-name=example.com', ...ns] },
    { name: 'create serviceaccount', args: ['create', 'serviceaccount', 'csa', ...ns], core: true },
    { name: 'create role', args: ['create', 'role', 'cr', '--verb=get,list', '--resource=pods,configmaps', ...ns] },
    { name: 'create role bad verb', args: ['create', 'role', 'cr2', '--verb=fly', '--resource=pods', ...ns] },
    { name: 'create clusterrole', args: ['create', 'clusterrole', 'kd-cr-{v}', '--verb=get', '--resource=nodes'], core: true },
    { name: 'create clusterrole aggregation', args: ['create', 'clusterrole', 'kd-agg-{v}', '--aggregation-rule=kd={v}'] },
    { name: 'create rolebinding', args: ['create', 'rolebinding', 'crb', '--role=cr', '--serviceaccount={ns}:csa', ...ns] },
    { name: 'create clusterrolebinding', args: ['create', 'clusterrolebinding', 'kd-crb-{v}', '--clusterrole=kd-cr-{v}', '--user=kd-user'] },
    { name: 'create quota', args: ['create', 'quota', 'cq', '--hard=pods=10,configmaps=20', ...ns] },
    { name: 'create priorityclass', args: ['create', 'priorityclass', 'kd-pc-{v}', '--value=1000', '--description=kd'] },
    { name: 'create poddisruptionbudget', args: ['create', 'poddisruptionbudget', 'cpdb', '--selector=app=web', '--min-available=1', ...ns] },
    { name: 'create ingress', args: ['create', 'ingress', 'ci', '--rule=example.com/path*=web:80', ...ns] },
    { name: 'create ingress bad', args: ['create', 'ingress', 'ci2', '--rule=example.com/path=web:notaport', ...ns] },
    { name: 'create token', args: ['create', 'token', 'csa', '--duration=10m', ...ns] },
    { name: 'create token bound', args: ['create', 'token', 'csa', '--bound-object-kind=Secret', '--bound-object-name=sg', ...ns] },
    { name: 'create token missing sa', args: ['create', 'token', 'nosuch', ...ns] },
    { name: 'create dry-run server', args: ['create', 'configmap', 'dry', '--from-literal=a=1', '--dry-run=server', '-o', 'yaml', ...ns] },
    { name: 'run pod', args: ['run', 'pod1', '--image=nginx', '--labels=app=p1', '--env=A=1', '--port=80', ...ns] },
    { name: 'run pod dry-run', args: ['run', 'pod2', '--image=nginx', '--dry-run=server', '-o', 'yaml', ...ns] },
    get('pod wide', ['pod', 'pod1', '-o', 'wide']),
    { name: 'describe pod', args: ['describe', 'pod', 'pod1', ...ns] },
    { name: 'logs unscheduled', args: ['logs', 'pod1', ...ns] },
    { name: 'exec unscheduled', args: ['exec', 'pod1', '--', 'ls', ...ns] },
    { name: 'attach unscheduled', args: ['attach', 'pod1', '--pod-running-timeout=1s', ...ns] },
    { name: 'port-forward unscheduled', args: ['port-forward', 'pod/pod1', '18080:80', ...ns] },
    { name: 'expose', args: ['expose', 'deploy', 'cd', '--port=80', '--name=cd-svc', ...ns] },
    { name: 'autoscale', args: ['autoscale', 'deploy', 'cd', '--min=1', '--max=3', '--cpu-percent=50', ...ns] },
    get('hpa', ['hpa']),
    { name: 'replace', args: ['replace', '-f', '-', ...ns], stdin: replaced },
    { name: 'replace force', args: ['replace', '--force', '-f', '-', ...ns], stdin: replaced },
    get('field-selector', ['cm', '--field-selector=metadata.name=app-config']),
    get('field-selector unsupported', ['cm', '--field-selector=data.a=1']),
    get('chunk-size', ['cm', '--chunk-size=1', '-o', 'name']),
    get('label-selector set', ['cm', '-l', 'app in (kd, kd-ssa)', '-o', 'name']),
    get('label-selector bad', ['cm', '-l', 'app in (']),
    { name: 'create generateName', args: ['create', '-f', '-', ...ns], stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: gen-}\n' },
    { name: 'create crd', args: ['create', '-f', '-'], stdin: crd },
    { name: 'wait crd established', args: ['wait', '--for=condition=Established', 'crd/widgets{v}.kd.example.com', '--timeout=30s'] },
    { name: 'create cr', args: ['apply', '-f', '-', ...ns], stdin: widget(2, 'red'),
      settled: (r) => r.code === 0 },
    { name: 'create cr invalid', args: ['apply', '-f', '-', ...ns], stdin: widget(0, 'green'), unordered: true },
    get('cr', ['widgets{v}']),
    get('cr wide', ['wd{v}', '-o', 'wide']),
    get('cr yaml', ['widget{v}', 'w1', '-o', 'yaml']),
    { name: 'scale cr', args: ['scale', 'widgets{v}', 'w1', '--replicas=3', ...ns] },
    { name: 'patch cr merge', args: ['patch', 'widgets{v}', 'w1', '--type=merge', '-p', '{"spec":{"color":"blue"}}', ...ns] },
    { name: 'patch cr strategic', args: ['patch', 'widgets{v}', 'w1', '-p', '{"spec":{"color":"blue"}}', ...ns] },
    { name: 'describe cr', args: ['describe', 'widgets{v}', 'w1', ...ns] },
    { name: 'get crd', args: ['get', 'crd', 'widgets{v}.kd.example.com'] },
    { name: 'get events', args: ['get', 'events', '--field-selector=reason=Checked', ...ns] },
    // `rollout restart` stamps web's pod template with kubectl's clock (kubectl.kubernetes.io/restartedAt,
    // to the second), and the template's hash names its ReplicaSet and pods: the two kubectl runs may
    // straddle a second, on kube as on kapi. So web's hashes are not compared, nor the order they give.
    { name: 'get all', args: ['get', 'all', ...ns], unordered: true, normalise: (t) => t.replace(WEB_TEMPLATE_HASH, '$1<hash>') },
    { name: 'get componentstatuses', args: ['get', 'componentstatuses'], unordered: true },
    { name: 'get apiservices', args: ['get', 'apiservices', '-o', 'name'] },
    { name: 'get raw livez', args: ['get', '--raw', '/livez'] },
    { name: 'get raw missing', args: ['get', '--raw', '/apis/nope/v1'] },
    { name: 'api-resources list namespaced', args: ['api-resources', '--verbs=list', '--namespaced', '-o', 'name'] },
    get('created', ['cm,secret,deploy,job,cronjob,svc,sa,role,rolebinding,quota,pdb,ingress']),
    { name: 'get created cluster', args: ['get', 'clusterrole/kd-cr-{v}', 'clusterrolebinding/kd-crb-{v}', 'priorityclass/kd-pc-{v}'] },
    { name: 'describe deployment', args: ['describe', 'deploy', 'cd', ...ns], core: true },
    { name: 'describe configmap', args: ['describe', 'cm', 'pruned-keeper', ...ns] },
    { name: 'describe service', args: ['describe', 'svc', 'sn', ...ns] },
    { name: 'describe secret', args: ['describe', 'secret', 'sd', ...ns] },
    { name: 'describe sa', args: ['describe', 'sa', 'csa', ...ns] },
    { name: 'describe role', args: ['describe', 'role', 'cr', ...ns] },
    { name: 'describe quota', args: ['describe', 'quota', 'cq', ...ns] },
    { name: 'describe namespace', args: ['describe', 'ns', '{ns}'] },
    { name: 'describe job', args: ['describe', 'job', 'cj', ...ns] },
    { name: 'describe cronjob', args: ['describe', 'cronjob', 'ccj', ...ns] },
    { name: 'describe ingress', args: ['describe', 'ingress', 'ci', ...ns] },
    { name: 'describe pdb', args: ['describe', 'pdb', 'cpdb', ...ns] },
    { name: 'describe priorityclass', args: ['describe', 'priorityclass', 'kd-pc-{v}'] },
    { name: 'edit', args: ['edit', 'cm', 'cc', ...ns], env: { EDITOR: 'sh {dir}/editor.sh' }, core: true },
    { name: 'edit result', args: ['get', 'cm', 'cc', '-o', 'jsonpath={.data}', ...ns] },
    { name: 'edit no change', args: ['edit', 'cm', 'cc', ...ns], env: { EDITOR: 'true' } },
    { name: 'wait condition', args: ['wait', '--for=condition=Available=false', 'deploy/cd', '--timeout=20s', ...ns] },
    { name: 'wait jsonpath', args: ['wait', '--for=jsonpath={.data.a}=edited', 'cm/cc', '--timeout=10s', ...ns], core: true },
    { name: 'wait jsonpath timeout', args: ['wait', '--for=jsonpath={.data.a}=9', 'cm/cc', '--timeout=1s', ...ns] },
    { name: 'wait missing', args: ['wait', '--for=condition=Ready', 'pod/nope', '--timeout=1s', ...ns] },
    { name: 'auth can-i', args: ['auth', 'can-i', 'create', 'pods', ...ns], core: true },
    { name: 'auth can-i as sa', args: ['auth', 'can-i', 'list', 'configmaps', '--as=system:serviceaccount:{ns}:csa', ...ns] },
    { name: 'auth can-i subresource', args: ['auth', 'can-i', 'get', 'pods', '--subresource=log', ...ns] },
    { name: 'auth can-i list', args: ['auth', 'can-i', '--list', ...ns] },
    { name: 'auth can-i list as sa', args: ['auth', 'can-i', '--list', '--as=system:serviceaccount:{ns}:csa', ...ns] },
    { name: 'auth whoami', args: ['auth', 'whoami'], core: true },
    { name: 'auth whoami json', args: ['auth', 'whoami', '-o', 'json'] },
    { name: 'auth reconcile', args: ['auth', 'reconcile', '-f', '-'], stdin: reconcileRBAC },
    { name: 'auth reconcile again', args: ['auth', 'reconcile', '-f', '-'], stdin: reconcileRBAC },
    { name: 'create event', args: ['create', '-f', '-', ...ns], stdin: event, core: true },
    { name: 'events', args: ['events', ...ns, '--for=configmap/app-config'] },
    { name: 'events all', args: ['events', '-A', '--for=configmap/app-config'] },
    { name: 'api-resources', args: ['api-resources'], core: true },
    { name: 'api-resources wide', args: ['api-resources', '-o', 'wide', '--api-group=apps'] },
    { name: 'api-resources namespaced', args: ['api-resources', '--namespaced=false', '-o', 'name'] },
    { name: 'api-versions', args: ['api-versions'], core: true },
    { name: 'cluster-info', args: ['cluster-info'] },
    { name: 'top', args: ['top', 'pods', ...ns], core: true },
    { name: 'top node', args: ['top', 'node'] },
    { name: 'create csr', args: ['create', '-f', '-'], stdin: csrManifest(csrB64) },
    { name: 'certificate approve', args: ['certificate', 'approve', 'kd-csr-{v}'] },
    { name: 'certificate approve again', args: ['certificate', 'approve', 'kd-csr-{v}'] },
    { name: 'certificate deny approved', args: ['certificate', 'deny', 'kd-csr-{v}'] },
    { name: 'get csr', args: ['get', 'csr', 'kd-csr-{v}', '-o', 'jsonpath={.status.conditions[*].type}'] },
    { name: 'create node', args: ['create', '-f', '-'], stdin: node, core: true },
    { name: 'cordon', args: ['cordon', 'kd-node-{v}'], core: true },
    { name: 'cordon again', args: ['cordon', 'kd-node-{v}'] },
    { name: 'taint node', args: ['taint', 'node', 'kd-node-{v}', 'k=v:NoSchedule'] },
    { name: 'taint node remove', args: ['taint', 'node', 'kd-node-{v}', 'k:NoSchedule-'] },
    { name: 'label node', args: ['label', 'node', 'kd-node-{v}', 'x=y'] },
    { name: 'drain', args: ['drain', 'kd-node-{v}', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=20s'] },
    { name: 'uncordon', args: ['uncordon', 'kd-node-{v}'], core: true },
    { name: 'get node', args: ['get', 'node', '-l', 'kd={v}'] },
    // The node lifecycle controller's event arrives when it arrives: wait for it on both servers.
    { name: 'describe node', args: ['describe', 'node', 'kd-node-{v}'], settled: (r) => r.stdout.includes('RegisteredNode') },
    { name: 'delete background', args: ['delete', 'deploy', 'cd', '--cascade=background', ...ns], core: true },
    { name: 'delete orphan', args: ['delete', 'deploy', 'web', '--cascade=orphan', ...ns] },
    { name: 'delete foreground', args: ['delete', 'job', 'cj', '--cascade=foreground', ...ns] },
    { name: 'delete grace-period', args: ['delete', 'cm', 'cc', '--grace-period=0', '--force', ...ns] },
    { name: 'delete now', args: ['delete', 'secret', 'sg', '--now', ...ns] },
    { name: 'delete wait false', args: ['delete', 'sa', 'csa', '--wait=false', ...ns] },
    { name: 'delete missing', args: ['delete', 'cm', 'nope', ...ns], core: true },
    { name: 'delete missing ignored', args: ['delete', 'cm', 'nope', '--ignore-not-found', ...ns] },
    { name: 'delete by label', args: ['delete', 'cm', '-l', 'app=kd-ssa', ...ns] },
    { name: 'delete dry-run', args: ['delete', 'svc', 'web', '--dry-run=server', ...ns] },
    { name: 'delete tls secret no wait', args: ['delete', 'secret', 'st', '--wait=false', ...ns] },
    { name: 'wait delete', args: ['wait', '--for=delete', 'secret/st', '--timeout=10s', ...ns] },
    { name: 'delete node', args: ['delete', 'node', 'kd-node-{v}'] },
    { name: 'delete cluster objects', args: ['delete', 'clusterrole/kd-cr-{v}', 'clusterrole/kd-agg-{v}', 'clusterrolebinding/kd-crb-{v}',
      'priorityclass/kd-pc-{v}', 'csr/kd-csr-{v}'] },
    { name: 'delete crd', args: ['delete', 'crd', 'widgets{v}.kd.example.com'] },
    { name: 'taint node gone', args: ['taint', 'node', 'kd-node-{v}', 'k=v:NoSchedule'] },
    { name: 'delete namespace', args: ['delete', 'namespace', '{ns}', '--timeout=60s'], core: true },
    { name: 'get deleted namespace', args: ['get', 'namespace', '{ns}'], core: true },
    { name: 'version', args: ['version', '-o', 'json'], compare: false },
  ];
}
