// Pod validation against kube-apiserver v1.36: every case of the invalid-pod corpus
// (testing/pod-validation-corpus.ts, one pod per rule of ValidatePodCreate/ValidatePodSpec), the
// issue's examples inside each workload's pod template, and the pod-update corpus
// (testing/pod-update-corpus.ts: ValidatePodUpdate, ephemeral containers). Compared with kube's
// recorded answers (testing/fixtures/pod-validation-kube.json) and, when the oracle is built, the
// live server. kube's "pod updates may not change fields" message ends in a diff of its internal Go
// structs, which kapi (diffing v1 JSON) cannot print: only the text before the diff is compared.
import {
  CORPUS_SERVICE_ACCOUNT, POD_CASES, WORKLOAD_CASES, WORKLOAD_FAULTS, caseURL, podOfCase, podSpecOfCase,
} from './testing/pod-validation-corpus.ts';
import { POD_UPDATE_CASES } from './testing/pod-update-corpus.ts';
import { describeValidationCorpus, post, putBack, type ValidationCase } from './testing/validation-differential.ts';

const pods = (ns: string): string => `/api/v1/namespaces/${ns}/pods`;

const cases: ValidationCase[] = [
  ...POD_CASES.map((c) => ({
    name: c.name,
    requests: (name: string, ns: string) => [post(caseURL(c, ns), podOfCase(c, name))],
    ...(c.keep === undefined ? {} : { keep: (o: Record<string, unknown>) => c.keep?.(o as { spec: Record<string, unknown> }) }),
  })),
  ...WORKLOAD_CASES.flatMap((w) => WORKLOAD_FAULTS.map((c) => ({
    name: `${w.name}: ${c.name}`,
    requests: (name: string, ns: string) => [post(w.path(ns), w.body(name, podSpecOfCase(c)))],
  }))),
  ...POD_UPDATE_CASES.map((c) => ({
    name: `update: ${c.name}`,
    requests: (name: string, ns: string) => [
      post(pods(ns), podOfCase({ name: c.name, ...(c.base === undefined ? {} : { spec: c.base }) }, name)),
      putBack(`${pods(ns)}/${name}${c.subresource === undefined ? '' : `/${c.subresource}`}?dryRun=All`,
        (o) => { c.mutate(o as Parameters<typeof c.mutate>[0]); }),
    ],
  })),
  // an ephemeral container once added may not change: the message ends with a diff of the internal EphemeralContainer
  {
    name: 'update: ephemeral container changed',
    requests: (name: string, ns: string) => {
      const ephemeral = `${pods(ns)}/${name}/ephemeralcontainers`;
      type Spec = { ephemeralContainers?: Record<string, unknown>[] };
      return [
        post(pods(ns), podOfCase({ name }, name)),
        putBack(ephemeral, (o) => { (o['spec'] as Spec).ephemeralContainers = [{ name: 'e', image: 'busybox', args: ['a'] }]; }),
        putBack(`${ephemeral}?dryRun=All`, (o) => { const e = (o['spec'] as Spec).ephemeralContainers?.[0]; if (e !== undefined) e['args'] = ['b']; }),
      ];
    },
  },
];

describeValidationCorpus({
  title: 'pod validation',
  cases,
  fixture: new URL('./testing/fixtures/pod-validation-kube.json', import.meta.url),
  // the ServiceAccount admission plugin looks up the namespace's default account (no controller makes it here)
  setup: (ns) => [post(`/api/v1/namespaces/${ns}/serviceaccounts`, JSON.parse(CORPUS_SERVICE_ACCOUNT))],
});
