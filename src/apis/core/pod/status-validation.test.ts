import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { Pod, PodStatus } from '../v1/types.ts';
import { normalizePodIPs, validatePodStatusUpdate } from './status-validation.ts';

const pod = (status: Record<string, unknown>, spec: Partial<Pod['spec']> = {}): Pod =>
  ({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always', ...spec }, status: { qosClass: 'BestEffort', ...status } as PodStatus });
const running = { name: 'c', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: {} } };
const terminated = { ...running, ready: false, state: { terminated: { exitCode: 0 } } };

describe('pod status validation (ValidatePodStatusUpdate), as kube-apiserver v1.36 answers', () => {
  const cases: { name: string; next: Pod; old?: Pod; want: string[] }[] = [
    { name: 'condition type not qualified', next: pod({ conditions: [{ type: 'bad type!', status: 'True' }] }),
      want: ['status.conditions[0].Type: Invalid value: "bad type!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')'] },
    { name: 'negative observedGeneration', next: pod({ observedGeneration: -1 }), want: ['status.observedGeneration: Invalid value: -1: must be a non-negative integer'] },
    { name: 'podIP with leading zeros', next: pod({ podIP: '10.0.0.01', podIPs: [{ ip: '10.0.0.01' }] }), want: ['status.podIPs[0]: Invalid value: "10.0.0.01": must not have leading 0s'] },
    { name: 'two IPv4 podIPs', next: pod({ podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }),
      want: ['status.podIPs: Invalid value: [{"IP":"10.0.0.1"},{"IP":"10.0.0.2"}]: may specify no more than one IP for each IP family'] },
    { name: 'hostIPs without hostIP', next: pod({ hostIPs: [{ ip: '10.1.0.2' }] }), want: ['status.hostIPs[0].ip: Invalid value: "10.1.0.2": must be equal to `hostIP`'] },
    { name: 'qosClass changed', next: pod({ qosClass: 'Guaranteed' }), want: ['status.qosClass: Invalid value: "Guaranteed": field is immutable'] },
    { name: 'linux user on a windows pod', next: pod({ containerStatuses: [{ ...running, user: { linux: { uid: 0, gid: 0 } } }] }, { os: { name: 'windows' } }),
      want: ['status.containerStatuses[0].user.linux: Forbidden: cannot be set for a windows pod'] },
    { name: 'terminated container restarted under Never', next: pod({ containerStatuses: [running] }, { restartPolicy: 'Never' }),
      old: pod({ containerStatuses: [terminated] }, { restartPolicy: 'Never' }), want: ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state'] },
    { name: 'terminated container restarted under Always', next: pod({ containerStatuses: [running] }), old: pod({ containerStatuses: [terminated] }), want: [] },
    { name: 'nominated node on a bound pod', next: pod({ nominatedNodeName: 'n2' }, { nodeName: 'n1' }), old: pod({}, { nodeName: 'n1' }),
      want: ['status.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validatePodStatusUpdate(c.next, c.old ?? pod({})).map(formatFieldError).sort(), [...c.want].sort()));

  it('podIP wins over a different podIPs[0], as kube converts v1 pods', () => {
    const status: PodStatus = { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.2' }] };
    normalizePodIPs(status);
    assert.deepEqual(status, { podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] });
  });
});
