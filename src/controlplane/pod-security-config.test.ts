// PodSecurity's configuration through --admission-control-config-file: start-up stops with
// kube-apiserver v1.36's messages (checked against the oracle binary) when it is bad.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { newAdmissionChain, type AdmissionStores } from './admission.ts';

const stores: AdmissionStores = {
  namespaces: () => Promise.resolve(undefined),
  serviceAccounts: {} as ResourceStore<KubeObject>,
  priorityClasses: undefined,
  authorizer: { authorize: () => Promise.resolve({ decision: 'NoOpinion', reason: '' }) },
};

const file = (body: string): string => 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n' +
  `  configuration:\n${body.replace(/^/gm, '    ')}\n`;
const PSC = 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\n';

describe('PodSecurity configuration at start-up', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-psa-config-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const cases = [
    {
      name: 'bad defaults', body: `${PSC}defaults:\n  enforce: strict\n  warn-version: v2`,
      want: 'failed to apply admission: failed to initialize admission plugin "PodSecurity": PodSecurity configuration error: ' +
        '[enforce: must be one of privileged, baseline, restricted, warn-version: must be "latest" or "v1.x"]',
    },
    {
      name: 'bad exemptions', body: `${PSC}exemptions:\n  namespaces: [a, a]\n  usernames: ['']`,
      want: 'failed to apply admission: failed to initialize admission plugin "PodSecurity": PodSecurity invalid: ' +
        '[exemptions.namespaces[1]: Duplicate value: "a", exemptions.usernames[0]: Invalid value: "": username must not be empty]',
    },
    {
      name: 'another kind', body: 'apiVersion: v1\nkind: Pod',
      want: 'failed to apply admission: couldn\'t init admission plugin "PodSecurity": no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
    },
  ];
  for (const c of cases) {
    it(`stops for ${c.name}`, async () => {
      const f = join(dir, `${c.name.replace(/\W+/g, '-')}.yaml`);
      await writeFile(f, file(c.body));
      assert.throws(() => newAdmissionChain({ enable: [], disable: [], configFile: f }, stores), { message: c.want });
    });
  }

  it('a good configuration builds the chain with PodSecurity', async () => {
    const f = join(dir, 'good.yaml');
    await writeFile(f, file(`${PSC}defaults:\n  enforce: baseline\nexemptions:\n  usernames: [u]`));
    assert.ok(newAdmissionChain({ enable: [], disable: [], configFile: f }, stores).names.includes('PodSecurity'));
  });
});
