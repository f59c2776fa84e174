// The PodSecurity corpus, part 3: a PodSecurityConfiguration in --admission-control-config-file
// with defaults (enforce baseline, warn and audit restricted) and exemptions by user, namespace
// and runtime class. Cases run as the admin unless they impersonate the exempt user.
// No Go counterpart: kube's admission tests informed the cases.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patch, post, type ValidationCase } from './validation-differential.ts';
import type { RawRequest } from './https-client.ts';
import { namespace, pod, podsURL } from './pod-security-corpus.ts';

type Obj = Record<string, unknown>;
const P = 'pod-security.kubernetes.io/';
export const EXEMPT_USER = 'psa-exempt-user';
const EXEMPT_NS = 'psa-exempt';
const EXEMPT_NS_LABELLED = 'psa-exempt-labelled';
const EXEMPT_RC = 'psa-exempt-rc';
const PLAIN = 'psa-defaults';

const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: baseline
      warn: restricted
      audit: restricted
    exemptions:
      usernames: [${EXEMPT_USER}]
      namespaces: [${EXEMPT_NS}, ${EXEMPT_NS_LABELLED}]
      runtimeClasses: [${EXEMPT_RC}]
`;

/** The configuration file, written once per process (kapi and the oracle read the same file). */
export function podSecurityConfigFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-psa-'));
  const file = join(dir, 'admission.yaml');
  writeFileSync(file, CONFIG);
  return file;
}

export function exemptionsSetup(): RawRequest[] {
  return [
    ...namespace(PLAIN, {}), ...namespace(EXEMPT_NS, {}),
    post('/apis/node.k8s.io/v1/runtimeclasses', { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: EXEMPT_RC }, handler: 'runc' }),
  ];
}

const privileged = (extra: Obj = {}): Obj => ({ containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }], ...extra });
const bare = (): Obj => ({ containers: [{ name: 'c', image: 'busybox' }] });
const asExempt = (r: RawRequest): RawRequest => ({ ...r, headers: { ...r.headers, 'Impersonate-User': EXEMPT_USER } });
const deployment = (name: string, spec: Obj): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec } },
});
const deployments = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;

export const EXEMPTION_CASES: readonly ValidationCase[] = [
  { name: 'defaults: a privileged pod is refused by baseline', requests: (n) => [post(podsURL(PLAIN), pod(n, privileged()))] },
  { name: 'defaults: a bare pod is warned by restricted', requests: (n) => [post(podsURL(PLAIN), pod(n, bare()))] },
  { name: 'defaults: a labelled namespace overrides them', requests: (n) => [...namespace(n, { [`${P}enforce`]: 'privileged' }), post(podsURL(n), pod('p', privileged()))] },
  { name: 'exempt namespace: a privileged pod', requests: (n) => [post(podsURL(EXEMPT_NS), pod(n, privileged()))] },
  { name: 'exempt namespace: a deployment', requests: (n) => [post(deployments(EXEMPT_NS), deployment(n, privileged()))] },
  { name: 'exempt user: a privileged pod', requests: (n) => [asExempt(post(podsURL(PLAIN), pod(n, privileged())))] },
  { name: 'exempt user: a deployment', requests: (n) => [asExempt(post(deployments(PLAIN), deployment(n, privileged())))] },
  { name: 'exempt runtime class: a privileged pod', requests: (n) => [post(podsURL(PLAIN), pod(n, privileged({ runtimeClassName: EXEMPT_RC })))] },
  { name: 'exempt runtime class: a deployment', requests: (n) => [post(deployments(PLAIN), deployment(n, privileged({ runtimeClassName: EXEMPT_RC })))] },
  { name: 'other runtime class: a deployment is warned', requests: (n) => [post(deployments(PLAIN), deployment(n, bare()))] },
  {
    name: 'exempt namespace created with labels is warned',
    requests: () => [post('/api/v1/namespaces', { metadata: { name: EXEMPT_NS_LABELLED, labels: { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'baseline', [`${P}audit-version`]: 'v1.30' } } })],
  },
  { name: 'exempt namespace labelled later is warned', requests: () => [patch(`/api/v1/namespaces/${EXEMPT_NS}`, { metadata: { labels: { [`${P}enforce`]: 'restricted' } } })] },
  { name: 'exempt namespace labelled with the defaults is not warned', requests: () => [patch(`/api/v1/namespaces/${EXEMPT_NS}`, { metadata: { labels: { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}audit`]: 'restricted' } } })] },
  {
    name: 'label change: pods of an exempt runtime class are not counted',
    requests: (n) => [...namespace(n, { [`${P}enforce`]: 'privileged' }), post(podsURL(n), pod('a', privileged({ runtimeClassName: EXEMPT_RC }))),
      post(podsURL(n), pod('b', privileged())), patch(`/api/v1/namespaces/${n}`, { metadata: { labels: { [`${P}enforce`]: 'baseline' } } })],
  },
];
