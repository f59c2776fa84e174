import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../../errors/status-error.ts';
import { protoDescriptorsJSON } from '../../../../generated/proto-descriptors.gen.ts';
import {
  canEncode, decodeProtobuf, decodeWatchEvent, encodeProtobuf, encodeProtobufList, encodeProtobufMessage, encodeWatchEventFrame,
  listItemMessage, PROTOBUF_MEDIA_TYPE,
} from './index.ts';
import { messageForKind } from './descriptors.ts';
import { formatDuration, parseDuration } from './well-known.ts';

type Obj = Record<string, unknown>;
const roundTrip = (obj: Obj): Obj => decodeProtobuf(encodeProtobuf(obj)).obj;
const contains = (buf: Buffer, s: string | Buffer): boolean => buf.includes(s);

const managedFields = [{
  manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: '2026-01-02T03:04:05Z',
  fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
}];

const identityCases: { name: string; obj: Obj }[] = [
  {
    name: 'Pod with status, probes, int-or-string ports and pointer zero values',
    obj: {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name: 'web-0', namespace: 'default', uid: '8d3c5a8e-0000-4000-8000-000000000001', resourceVersion: '12',
        creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'web', 'ünï': 'cødé ✓' }, managedFields,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
      },
      spec: {
        automountServiceAccountToken: false, terminationGracePeriodSeconds: 30,
        securityContext: { runAsUser: -5, fsGroup: 2000 },
        containers: [{
          name: 'web', image: 'nginx:1.27', args: ['-g', 'daemon off;'],
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 10 },
          livenessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 3 },
          env: [{ name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
        }],
        volumes: [{ name: 'cfg', configMap: { name: 'web-config', defaultMode: 420 } }],
      },
      status: {
        phase: 'Running', startTime: '2026-01-02T03:04:06Z',
        conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:07Z' }],
        containerStatuses: [{
          name: 'web', ready: false, restartCount: 0, image: 'nginx:1.27', imageID: '', started: false,
          state: { running: { startedAt: '2026-01-02T03:04:07Z' } }, lastState: {},
        }],
      },
    },
  },
  {
    name: 'Service with int and string targetPorts',
    obj: {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' },
      spec: {
        type: 'ClusterIP', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10'], ipFamilies: ['IPv4'],
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }, { name: 'alt', port: 81, targetPort: 8081, protocol: 'TCP' }],
        selector: { app: 'web' }, sessionAffinity: 'None',
      },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'Secret with bytes values',
    obj: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', immutable: false, data: { a: 'Yg==', bin: 'AAEC/w==' }, stringData: { c: 'd' } },
  },
  {
    name: 'ConfigMap with binaryData',
    obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields }, data: { a: '' }, binaryData: { b: 'aGVsbG8=' } },
  },
  {
    name: 'Deployment scaled to zero',
    obj: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', generation: 3 },
      spec: {
        replicas: 0, selector: { matchLabels: { app: 'd' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] } },
      },
      status: { observedGeneration: 3, conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
    },
  },
  {
    name: 'core/v1 Event with MicroTime',
    obj: {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'default' }, reason: 'Pulled', message: 'pulled', type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' }, firstTimestamp: null, lastTimestamp: null, count: 1,
      eventTime: '2026-01-02T03:04:05.123456Z', reportingComponent: 'kubelet', reportingInstance: 'node-1', action: 'Pull',
    },
  },
  {
    name: 'events.k8s.io/v1 Event with series',
    obj: {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2' }, eventTime: '2026-01-02T03:04:05.000001Z',
      series: { count: 2, lastObservedTime: '2026-01-02T03:04:09.999999Z' }, reportingController: 'c', reportingInstance: 'i',
      action: 'A', reason: 'R', regarding: { kind: 'Pod', name: 'p' }, type: 'Normal',
    },
  },
  {
    name: 'Lease with MicroTimes',
    obj: {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' },
      spec: { holderIdentity: 'node-1_abc', leaseDurationSeconds: 15, acquireTime: '2026-01-02T03:04:05.000000Z', renewTime: '2026-01-02T03:04:20.654321Z', leaseTransitions: 0 },
    },
  },
  {
    name: 'ControllerRevision with an embedded object (RawExtension)',
    obj: {
      apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 2,
      data: { spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }, x: [1, 2.5, 'y', null, true] },
    },
  },
  {
    name: 'Status with causes',
    obj: {
      apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'Pod "p" is invalid', reason: 'Invalid', code: 422,
      details: { name: 'p', kind: 'Pod', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }] },
    },
  },
  {
    name: 'ConfigMapList',
    obj: { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7', continue: 'abc', remainingItemCount: 3 }, items: [{ metadata: { name: 'a' }, data: { k: 'v' } }] },
  },
  {
    name: 'PartialObjectMetadataList (meta.k8s.io/v1)',
    obj: { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList', metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 'a', namespace: 'default' } }] },
  },
  {
    name: 'PartialObjectMetadata (meta.k8s.io/v1beta1)',
    obj: { apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadata', metadata: { name: 'a', labels: { x: 'y' } } },
  },
  {
    name: 'ClusterRole with aggregation rule',
    obj: {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'view' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] },
    },
  },
];

describe('protobuf: JSON → protobuf → JSON is the identity', () => {
  for (const c of identityCases) {
    it(c.name, () => assert.deepEqual(roundTrip(c.obj), c.obj));
  }
});

describe('protobuf: wire details', () => {
  it('starts with k8s\\0 and a runtime.Unknown naming apiVersion and kind', () => {
    const buf = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    assert.equal(buf.subarray(0, 4).toString('hex'), '6b387300');
    assert.equal(buf.subarray(4, 21).toString('hex'), '0a0f0a0276311209436f6e6669674d6170');
    // contentEncoding and contentType close the envelope, empty, as Go writes them.
    assert.equal(buf.subarray(-4).toString('hex'), '1a002200');
  });

  it('writes bytes fields raw, RawExtension and FieldsV1 as JSON text', () => {
    const secret = encodeProtobuf({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'AAEC/w==' } });
    assert.ok(contains(secret, Buffer.from([0x00, 0x01, 0x02, 0xff])), 'bytes not found');
    const cm = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields } });
    assert.ok(contains(cm, '{"f:data":{".":{},"f:a":{}}}'), 'bytes not found');
  });

  it('writes Time as whole seconds and MicroTime with nanoseconds', () => {
    const lease = encodeProtobuf({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { renewTime: '1970-01-01T00:00:01.000002Z' } });
    assert.ok(contains(lease, Buffer.from('12072205080110d00f', 'hex')), 'bytes not found'); // spec{renewTime{seconds 1, nanos 2000}}
  });

  it('decodes the body kubectl create configmap sends', () => {
    // Captured from kubectl 1.32: every non-pointer field is present, empty, as gogo-protobuf writes it.
    const body = Buffer.from('6b3873000a0f0a0276311209436f6e6669674d6170121b0a110a017812001a0022002a0032003800420012060a01611201621a002200', 'hex');
    assert.deepEqual(decodeProtobuf(body), {
      apiVersion: 'v1', kind: 'ConfigMap', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } },
    });
  });
});

describe('protobuf: JSON kube prints after a protobuf decode', () => {
  const cases: { name: string; obj: Obj; want: Obj }[] = [
    {
      name: 'drops zero values of non-pointer omitempty fields, keeps pointer and required ones',
      obj: {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', generateName: '', generation: 0 },
        spec: { hostNetwork: false, automountServiceAccountToken: false, containers: [{ name: 'c', stdin: false, ports: [{ containerPort: 80, hostPort: 0 }] }] },
        status: { containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '' }] },
      },
      want: {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
        spec: { automountServiceAccountToken: false, containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] },
        status: { containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: '', imageID: '' }] },
      },
    },
    {
      name: 'keeps an empty string behind a pointer (storageClassName)',
      obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { storageClassName: '', volumeName: '' } },
      want: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { storageClassName: '' } },
    },
    {
      name: 'prints nil non-omitempty lists as null',
      obj: { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [] },
      want: { apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: null },
    },
    {
      name: 'normalises times to UTC seconds and MicroTimes to 6 digits',
      obj: {
        apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', creationTimestamp: '2026-01-02T05:04:05.9+02:00' },
        involvedObject: {}, eventTime: '2026-01-02T03:04:05.5Z', reportingComponent: '', reportingInstance: '',
      },
      want: {
        apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', creationTimestamp: '2026-01-02T03:04:05Z' },
        involvedObject: {}, eventTime: '2026-01-02T03:04:05.500000Z', reportingComponent: '', reportingInstance: '',
      },
    },
    {
      name: 'omits a null creationTimestamp (omitzero) but prints other zero times as null',
      obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', creationTimestamp: null }, status: { conditions: [{ type: 'T', status: 'True', lastTransitionTime: null }] } },
      want: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, status: { conditions: [{ type: 'T', status: 'True', lastTransitionTime: null }] } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(roundTrip(c.obj), c.want));
  }

  it('decodes a RawExtension holding a protobuf object (k8s\\0 envelope) to its JSON form', () => {
    const embedded = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'in' }, data: { a: 'b' } };
    const inner = encodeProtobuf(embedded);
    const field = (no: number, b: Buffer): Buffer => Buffer.concat([Buffer.from([(no << 3) | 2, b.length]), b]);
    const typeMeta = Buffer.concat([field(1, Buffer.from('apps/v1')), field(2, Buffer.from('ControllerRevision'))]);
    const raw = field(2, field(1, inner)); // ControllerRevision.data = RawExtension{raw}
    const body = Buffer.concat([Buffer.from('6b387300', 'hex'), field(1, typeMeta), field(2, raw)]);
    assert.deepEqual(decodeProtobuf(body).obj, { apiVersion: 'apps/v1', kind: 'ControllerRevision', data: embedded });
  });
});

describe('protobuf: watch frames', () => {
  const cases: { type: string; obj: Obj }[] = [
    { type: 'ADDED', obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'v' } } },
    { type: 'BOOKMARK', obj: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { resourceVersion: '9', annotations: { 'k8s.io/initial-events-end': 'true' } } } },
    { type: 'ERROR', obj: { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 } },
  ];
  for (const c of cases) {
    it(`${c.type}: 4-byte length, then WatchEvent{type, object.raw = k8s\\0 envelope}`, () => {
      const frame = encodeWatchEventFrame(c.type, c.obj);
      assert.equal(frame.readUInt32BE(0), frame.length - 4);
      assert.ok(frame.subarray(4).includes(encodeProtobuf(c.obj)), 'object envelope not in frame');
      assert.deepEqual(decodeWatchEvent(frame.subarray(4)), { type: c.type, object: c.obj });
    });
  }
});

describe('protobuf: canEncode', () => {
  const cases: { apiVersion: string; kind: string; want: boolean }[] = [
    { apiVersion: 'v1', kind: 'Pod', want: true },
    { apiVersion: 'apps/v1', kind: 'Deployment', want: true },
    { apiVersion: 'v1', kind: 'Status', want: true },
    { apiVersion: 'apps/v1', kind: 'DeleteOptions', want: true },
    { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', want: true },
    { apiVersion: 'meta.k8s.io/v1', kind: 'Table', want: false },
    { apiVersion: 'stable.example.com/v1', kind: 'CronTab', want: false },
    { apiVersion: 'v1', kind: 'Deployment', want: false },
    { apiVersion: 'v1', kind: '', want: false },
  ];
  for (const c of cases) {
    it(`${c.apiVersion} ${c.kind || '(empty)'} → ${c.want}`, () => assert.equal(canEncode(c.apiVersion, c.kind), c.want));
  }
  it('names the media type', () => assert.equal(PROTOBUF_MEDIA_TYPE, 'application/vnd.kubernetes.protobuf'));
});

describe('protobuf: malformed input is a BadRequest', () => {
  const envelope = (typeMeta: string, raw = ''): Buffer => {
    const tm = Buffer.from(typeMeta, 'hex');
    const r = Buffer.from(raw, 'hex');
    return Buffer.concat([Buffer.from('6b387300', 'hex'), Buffer.from([0x0a, tm.length]), tm, Buffer.from([0x12, r.length]), r]);
  };
  const cases: { name: string; buf: Buffer; message: RegExp }[] = [
    { name: 'empty body', buf: Buffer.alloc(0), message: /^empty data$/ },
    { name: 'JSON instead of protobuf', buf: Buffer.from('{"kind":"Pod"}'), message: /does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/ },
    { name: 'prefix only', buf: Buffer.from('6b387300', 'hex'), message: /^empty body$/ },
    { name: 'truncated', buf: Buffer.from('6b3873000a0f0a02', 'hex'), message: /length exceeds|unexpected end/ },
    { name: 'no kind', buf: envelope('0a027631'), message: /Object 'Kind' is missing/ },
    { name: 'unknown kind', buf: envelope('0a0276311203466f6f'), message: /no kind "Foo" is registered for version "v1"/ },
    { name: 'wrong wire type', buf: envelope('0a0276311209436f6e6669674d6170', '0a020801'), message: /wrong wire type 0 for field name/ },
    { name: 'bad JSON in FieldsV1', buf: envelope('0a0276311209436f6e6669674d6170', '0a0a8a01073a050a037b7b7b'), message: /invalid JSON in FieldsV1/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(() => decodeProtobuf(c.buf), (err: unknown) => {
        assert.ok(err instanceof StatusError, 'not a StatusError');
        assert.equal(err.status.code, 400);
        assert.equal(err.status.reason, 'BadRequest');
        assert.match(err.status.message ?? '', c.message);
        return true;
      });
    });
  }
});

describe('protobuf: Go durations', () => {
  const cases: { text: string; ns: number; canonical: string }[] = [
    { text: '0', ns: 0, canonical: '0s' },
    { text: '1h2m3.5s', ns: 3_723_500_000_000, canonical: '1h2m3.5s' },
    { text: '90s', ns: 90e9, canonical: '1m30s' },
    { text: '300ms', ns: 300e6, canonical: '300ms' },
    { text: '1.5us', ns: 1500, canonical: '1.5µs' },
    { text: '-2h', ns: -7200e9, canonical: '-2h0m0s' },
    { text: '12ns', ns: 12, canonical: '12ns' },
  ];
  for (const c of cases) {
    it(c.text, () => {
      assert.equal(parseDuration(c.text), c.ns);
      assert.equal(formatDuration(c.ns), c.canonical);
    });
  }
  it('rejects malformed durations', () => assert.throws(() => parseDuration('5 minutes'), /invalid duration/));
});

describe('protobuf: a list from its items\' encoded messages (encode once)', () => {
  const { groupVersions, messages } = JSON.parse(protoDescriptorsJSON) as { groupVersions: Record<string, string>; messages: Record<string, unknown> };
  // Every list kind of every group version kube serves in protobuf.
  const lists = Object.entries(groupVersions).flatMap(([apiVersion, pkg]) => Object.keys(messages)
    .filter((m) => m.startsWith(`${pkg}.`) && m.endsWith('List') && !m.slice(pkg.length + 1).includes('.'))
    .map((m) => ({ apiVersion, kind: m.slice(pkg.length + 1) })));

  it('every list kind but one has its items last, so it can be written from its items\' bytes', () => {
    assert.ok(lists.length > 100, `${lists.length} list kinds`);
    const without = lists.filter((l) => listItemMessage(l.apiVersion, l.kind) === undefined && messageForKind(l.apiVersion, l.kind)?.fields.some((f) => f.json === 'items'));
    // meta.k8s.io/v1beta1's PartialObjectMetadataList numbers items 1 and metadata 2: it is written whole.
    assert.deepEqual(without, [{ apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadataList' }]);
  });

  const cases = [
    { name: 'no items', apiVersion: 'v1', kind: 'SecretList', items: [] },
    { name: 'items with bytes and a continue token', apiVersion: 'v1', kind: 'SecretList', metadata: { resourceVersion: '9', continue: 'x' },
      items: [{ metadata: { name: 'a' }, data: { k: 'AQID' }, type: 'Opaque' }, { metadata: { name: 'b' }, immutable: true }] },
    { name: 'apps Deployments', apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: { resourceVersion: '3' },
      items: [{ metadata: { name: 'd', labels: { a: 'b' } }, spec: { replicas: 2, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }] },
  ];
  for (const c of cases) {
    it(`${c.name}: the bytes of encodeProtobuf for the whole list`, () => {
      const msg = listItemMessage(c.apiVersion, c.kind);
      assert.ok(msg !== undefined);
      const { items, ...head } = c;
      const list = { apiVersion: c.apiVersion, kind: c.kind, ...('metadata' in c ? { metadata: c.metadata } : {}), items };
      const fromItems = encodeProtobufList({ apiVersion: head.apiVersion, kind: head.kind, ...('metadata' in c ? { metadata: c.metadata } : {}) },
        items.map((it) => encodeProtobufMessage(it, msg)));
      assert.ok(fromItems.equals(encodeProtobuf(list)));
      assert.deepEqual(decodeProtobuf(fromItems).obj, decodeProtobuf(encodeProtobuf(list)).obj);
    });
  }

  it('a kind without a list message throws', () => {
    assert.throws(() => encodeProtobufList({ apiVersion: 'v1', kind: 'ConfigMap' }, []), /no protobuf list message/);
  });
});
