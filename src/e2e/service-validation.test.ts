// Service, Endpoints and EndpointSlice validation against kube-apiserver v1.36: every case of the
// invalid-Service corpus (testing/service-validation-corpus.ts: ValidateServiceCreate,
// ValidateServiceUpdate, ValidateServiceStatusUpdate, and the Warning headers of
// GetWarningsForService) and of the Endpoints/EndpointSlice corpus
// (testing/endpoints-validation-corpus.ts). Compared with kube's recorded answers
// (testing/fixtures/service-validation-kube.json) and, when the oracle is built, the live server.
import { ENDPOINTS_CASES, ENDPOINTS_UPDATE_CASES, endpointsOfCase } from './testing/endpoints-validation-corpus.ts';
import { SERVICE_CASES, SERVICE_UPDATE_CASES, serviceOfCase } from './testing/service-validation-corpus.ts';
import { describeValidationCorpus, post, putBack, type ValidationCase } from './testing/validation-differential.ts';

const services = (ns: string): string => `/api/v1/namespaces/${ns}/services`;

const cases: ValidationCase[] = [
  ...SERVICE_CASES.map((c) => ({ name: c.name, requests: (name: string, ns: string) => [post(`${services(ns)}?dryRun=All`, serviceOfCase(c, name))] })),
  ...SERVICE_UPDATE_CASES.map((c) => ({
    name: `update: ${c.name}`,
    requests: (name: string, ns: string) => [
      post(services(ns), serviceOfCase(c, name)),
      putBack(`${services(ns)}/${name}${c.subresource === undefined ? '' : `/${c.subresource}`}?dryRun=All`,
        (o) => { c.mutate(o as Parameters<typeof c.mutate>[0]); }),
    ],
  })),
  ...ENDPOINTS_CASES.map((c) => ({
    name: `${c.kind}: ${c.name}`,
    requests: (name: string, ns: string) => { const { path, body } = endpointsOfCase(c, name, ns); return [post(path, body)]; },
  })),
  ...ENDPOINTS_UPDATE_CASES.map((c) => ({
    name: `${c.kind} update: ${c.name}`,
    requests: (name: string, ns: string) => {
      const { path, body } = endpointsOfCase(c, name, ns);
      const collection = path.replace('?dryRun=All', '');
      return [post(collection, body), putBack(`${collection}/${name}?dryRun=All`, c.mutate)];
    },
  })),
];

describeValidationCorpus({
  title: 'Service, Endpoints and EndpointSlice validation',
  cases,
  fixture: new URL('./testing/fixtures/service-validation-kube.json', import.meta.url),
});
