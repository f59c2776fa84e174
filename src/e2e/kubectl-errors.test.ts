// The errors kubectl users read (AlreadyExists, NotFound, Conflict, Invalid, strict decoding, missing
// namespace, failed patches, a UID precondition, malformed YAML), that nothing is stored when a
// request fails, namespace deletion emptying the namespace, and create -f of a create-only kind
// (which kubectl validates against /openapi/v2 in protobuf).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lines } from './testing/kubectl.ts';
import { configMapManifest, namespaceManifest } from './testing/manifests.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-errors';

const RFC1123_SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const CONFIG_KEY = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const cmJSON = (name: string, extra: Record<string, unknown> = {}): string => configMapManifest(name, { k: 'v' }, extra);

describe('kubectl error reporting', () => {
  let s: Suite;
  const exists = async (name: string, ns = NS): Promise<boolean> => {
    const r = await s.kubectl(['get', 'cm', name, '-n', ns, '-o', 'name']);
    if (r.code === 0) return true;
    assert.equal(r.stderr, `Error from server (NotFound): configmaps "${name}" not found\n`);
    return false;
  };

  before(async () => {
    s = await startSuite();
    assert.equal((await s.kubectl(['create', '-f', '-'], namespaceManifest(NS))).code, 0);
  });
  after(async () => { await s?.close(); });

  it('AlreadyExists from create -f and from imperative create', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('dup'))).stdout, 'configmap/dup created\n');
    const again = await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('dup'));
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'Error from server (AlreadyExists): error when creating "STDIN": configmaps "dup" already exists\n');

    // Imperative create sends protobuf and wraps the server's message.
    const imperative = await s.kubectl(['create', 'configmap', 'dup', '-n', NS, '--from-literal=a=b']);
    assert.equal(imperative.code, 1);
    assert.equal(imperative.stderr, 'error: failed to create configmap: configmaps "dup" already exists\n');
  });

  it('NotFound for get, delete, label and patch', async () => {
    const cases = [
      { name: 'get', args: ['get', 'cm', 'nope'] },
      { name: 'delete', args: ['delete', 'cm', 'nope'] },
      { name: 'label', args: ['label', 'cm', 'nope', 'a=b'] },
      { name: 'patch', args: ['patch', 'cm', 'nope', '--type', 'merge', '-p', '{"data":{"a":"b"}}'] },
    ];
    for (const c of cases) {
      const r = await s.kubectl([...c.args, '-n', NS]);
      assert.equal(r.code, 1, c.name);
      assert.equal(r.stderr, 'Error from server (NotFound): configmaps "nope" not found\n', c.name);
    }
    const ns = await s.kubectl(['get', 'ns', 'nope']);
    assert.equal(ns.stderr, 'Error from server (NotFound): namespaces "nope" not found\n');
  });

  it('Conflict when replace carries a stale resourceVersion', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('conf'))).code, 0);
    const stale = JSON.parse((await s.kubectl(['get', 'cm', 'conf', '-n', NS, '-o', 'json'])).stdout) as { data: Record<string, string> };
    assert.equal((await s.kubectl(['label', 'cm', 'conf', '-n', NS, 'bump=1'])).code, 0);
    stale.data = { k: 'stale write' };
    const r = await s.kubectl(['replace', '-f', '-', '-n', NS], JSON.stringify(stale));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "conf": the object has been modified; please apply your changes to the latest version and try again\n');
    const now = await s.kubectl(['get', 'cm', 'conf', '-n', NS, '-o', 'jsonpath={.data.k}']);
    assert.equal(now.stdout, 'v');
  });

  it('Invalid: a non-DNS-1123 name, with the field cause', async () => {
    const r = await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('Bad_Name'));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `The ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${RFC1123_SUBDOMAIN}\n`);
    assert.equal(await exists('bad-name'), false);
  });

  it('Invalid: several causes are listed one per line', async () => {
    const r = await s.kubectl(['create', '-f', '-', '-n', NS], JSON.stringify({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' }, data: { 'bad key!': 'x' } }));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, [
      'The ConfigMap "Bad_Name" is invalid: ',
      `* metadata.name: Invalid value: "Bad_Name": ${RFC1123_SUBDOMAIN}`,
      `* data[bad key!]: Invalid value: "bad key!": ${CONFIG_KEY}`,
      '',
    ].join('\n'));
  });

  it('strict field validation: create -f refuses unknown fields and stores nothing', async () => {
    const cases = [
      { name: 'top-level field', body: cmJSON('strict1', { dataa: { x: 'y' } }), cm: 'strict1',
        want: 'strict decoding error: unknown field "dataa"' },
      { name: 'nested field', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict2', labelz: { a: 'b' } } }),
        cm: 'strict2', want: 'strict decoding error: unknown field "metadata.labelz"' },
      { name: 'two fields', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'strict3', labelz: {} }, dataa: {} }),
        cm: 'strict3', want: 'strict decoding error: unknown field "dataa", unknown field "metadata.labelz"' },
    ];
    for (const c of cases) {
      const r = await s.kubectl(['create', '-f', '-', '-n', NS], c.body);
      assert.equal(r.code, 1, c.name);
      assert.equal(r.stderr,
        `Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: ${c.want}\n`, c.name);
      assert.equal(await exists(c.cm), false, c.name);
    }
  });

  it('--validate=warn stores the object and relays the server warning; --validate=false drops the field', async () => {
    const warn = await s.kubectl(['create', '-f', '-', '-n', NS, '--validate=warn'], cmJSON('lenient1', { dataa: { x: 'y' } }));
    assert.equal(warn.code, 0, warn.stderr);
    assert.equal(warn.stdout, 'configmap/lenient1 created\n');
    assert.match(warn.stderr, /^Warning: unknown field "dataa"$/m);

    const off = await s.kubectl(['create', '-f', '-', '-n', NS, '--validate=false'], cmJSON('lenient2', { dataa: { x: 'y' } }));
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stderr, '');
    const stored = JSON.parse((await s.kubectl(['get', 'cm', 'lenient2', '-n', NS, '-o', 'json'])).stdout) as Record<string, unknown>;
    assert.equal('dataa' in stored, false);
    assert.deepEqual(stored['data'], { k: 'v' });
  });

  it('creating in a namespace that does not exist', async () => {
    const f = await s.kubectl(['create', '-f', '-', '-n', 'nope'], cmJSON('orphan'));
    assert.equal(f.code, 1);
    assert.equal(f.stderr, 'Error from server (NotFound): error when creating "STDIN": namespaces "nope" not found\n');

    const imperative = await s.kubectl(['create', 'configmap', 'orphan', '-n', 'nope', '--from-literal=a=b']);
    assert.equal(imperative.code, 1);
    assert.equal(imperative.stderr, 'error: failed to create configmap: namespaces "nope" not found\n');

    const all = await s.kubectl(['get', 'cm', '-A', '--field-selector', 'metadata.name=orphan', '-o', 'name']);
    assert.equal(all.stdout, '');
  });

  it('delete ns removes the namespace and everything in it', async () => {
    const cases = [
      { name: 'without waiting', ns: 'doomed-a', flags: ['--wait=false'] },
      { name: 'kubectl waiting for the deletion', ns: 'doomed-b', flags: [] },
    ];
    for (const c of cases) {
      assert.equal((await s.kubectl(['create', '-f', '-'], namespaceManifest(c.ns))).code, 0, c.name);
      for (const cm of ['one', 'two', 'three']) {
        assert.equal((await s.kubectl(['create', '-f', '-', '-n', c.ns], configMapManifest(cm, { a: 'b' }))).code, 0, c.name);
      }
      const d = await s.kubectl(['delete', 'ns', c.ns, ...c.flags]);
      assert.equal(d.code, 0, `${c.name}: ${d.stderr}`);
      assert.equal(d.stdout, `namespace "${c.ns}" deleted\n`, c.name);
      const gone = await eventually(`namespace ${c.ns} to be gone`, async () => {
        const g = await s.kubectl(['get', 'ns', c.ns]);
        return g.code === 0 ? undefined : g;
      });
      assert.equal(gone.stderr, `Error from server (NotFound): namespaces "${c.ns}" not found\n`, c.name);
      const left = await s.request({ method: 'GET', path: `/api/v1/namespaces/${c.ns}/configmaps` });
      assert.equal(left.status, 200, left.text);
      assert.deepEqual((left.json() as { items: unknown[] }).items, [], c.name);
      const listed = await s.kubectl(['get', 'cm', '-A', '-o', 'name', '--field-selector', `metadata.namespace=${c.ns}`]);
      assert.deepEqual(lines(listed.stdout), [], c.name);
    }
  });

  it('a namespace being deleted shows Terminating or is already gone', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-'], namespaceManifest('doomed-c'))).code, 0);
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', 'doomed-c'], configMapManifest('x'))).code, 0);
    assert.equal((await s.kubectl(['delete', 'ns', 'doomed-c', '--wait=false'])).code, 0);
    const g = await s.kubectl(['get', 'ns', 'doomed-c', '-o', 'jsonpath={.status.phase}']);
    if (g.code === 0) assert.equal(g.stdout, 'Terminating');
    else assert.equal(g.stderr, 'Error from server (NotFound): namespaces "doomed-c" not found\n');
  });

  it('failed patches: a JSON patch operation that fails, malformed merge and strategic merge patches', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('patched'))).code, 0);
    const cases = [
      { name: 'json patch test fails', type: 'json', patch: '[{"op":"test","path":"/data/k","value":"x"}]',
        stderr: 'The request is invalid: the server rejected our request due to an error in our request\n' },
      { name: 'json patch removes a missing key', type: 'json', patch: '[{"op":"remove","path":"/data/zz"}]',
        stderr: 'The request is invalid: the server rejected our request due to an error in our request\n' },
      { name: 'malformed merge patch', type: 'merge', patch: '{bad}',
        stderr: "Error from server (BadRequest): error decoding patch: invalid character 'b' looking for beginning of object key string\n" },
      { name: 'malformed strategic merge patch', type: 'strategic', patch: '{bad}',
        stderr: "Error from server (BadRequest): invalid character 'b' looking for beginning of object key string\n" },
    ];
    for (const c of cases) {
      const r = await s.kubectl(['patch', 'cm', 'patched', '-n', NS, '--type', c.type, '-p', c.patch]);
      assert.equal(r.code, 1, c.name);
      assert.equal(r.stderr, c.stderr, c.name);
    }
    const now = await s.kubectl(['get', 'cm', 'patched', '-n', NS, '-o', 'jsonpath={.data}']);
    assert.equal(now.stdout, '{"k":"v"}');
  });

  it('replace with another object\'s UID fails the storage precondition', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], cmJSON('pa'))).code, 0);
    const uid = (await s.kubectl(['get', 'cm', 'pa', '-n', NS, '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const r = await s.kubectl(['replace', '-f', '-', '-n', NS], cmJSON('pa', { metadata: { name: 'pa', uid: 'abc' } }));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "pa": '
      + `StorageError: invalid object, Code: 4, Key: /registry/configmaps/${NS}/pa, ResourceVersion: 0, `
      + `AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: ${uid}\n`);
  });

  it('malformed YAML: the server reports go-yaml\'s line, as kubectl does for its own files', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n';
    const local = await s.kubectl(['create', '-f', '-', '-n', NS], yaml);
    assert.equal(local.stderr, 'error: error parsing STDIN: error converting YAML to JSON: yaml: line 4: did not find expected \',\' or \']\'\n');
    const r = await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, contentType: 'application/yaml', body: yaml });
    assert.equal(r.status, 400);
    assert.match(String((r.json() as { message: string }).message),
      /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: line 4: did not find expected ',' or '\]' \(/);
  });

  it('create -f of create-only kinds validates against /openapi/v2 (protobuf) as with kube', async () => {
    const sar = JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'admin', resourceAttributes: { verb: 'get', resource: 'pods', namespace: NS } } });
    const ok = await s.kubectl(['create', '-f', '-', '-o', 'jsonpath={.kind}'], sar);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, 'SubjectAccessReview');
    const bogus = await s.kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'admin', bogus: 1 } }));
    assert.equal(bogus.code, 1);
    assert.equal(bogus.stderr, 'error: error validating "STDIN": error validating data: ValidationError(SubjectAccessReview.spec): '
      + 'unknown field "bogus" in io.k8s.api.authorization.v1.SubjectAccessReviewSpec; if you choose to ignore these errors, turn validation off with --validate=false\n');
  });
});
