// `kubectl get pods` columns (printers.go printPod): READY, STATUS computed from container
// states, RESTARTS with the age of the last restart, and the wide columns.
// Counterpart of pkg/printers/internalversion/printers.go (printPod).
import type { DeepReadonly, TableColumn } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, translateTimestampSince } from '../../../registry/rest/kit.ts';
import type { ContainerStatus, Pod } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

interface PodCells { ready: string; status: string; restarts: string }

const later = (a: string, b: string | undefined): string => (b !== undefined && b !== '' && (a === '' || Date.parse(b) > Date.parse(a)) ? b : a);

export function podCells(pod: RO<Pod>, now: number): PodCells {
  const spec = pod.spec;
  const status = pod.status ?? {};
  let restarts = 0;
  let sidecarRestarts = 0;
  let total = (spec.containers ?? []).length;
  let ready = 0;
  let lastRestart = '';
  let lastSidecarRestart = '';
  const phase = status.phase ?? '';
  let reason: string = (status.reason ?? '') !== '' ? status.reason ?? '' : phase;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const inits = new Map((spec.initContainers ?? []).map((c) => [c.name, c] as const));
  const isSidecar = (name: string): boolean => inits.get(name)?.restartPolicy === 'Always';
  for (const c of spec.initContainers ?? []) if (c.restartPolicy === 'Always') total++;

  let initializing = false;
  const initStatuses: readonly RO<ContainerStatus>[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    if (c === undefined) continue;
    restarts += c.restartCount ?? 0;
    lastRestart = later(lastRestart, c.lastState?.terminated?.finishedAt);
    if (isSidecar(c.name)) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, c.lastState?.terminated?.finishedAt);
    }
    const t = c.state?.terminated;
    const w = c.state?.waiting;
    if (t !== undefined && t.exitCode === 0) continue;
    if (isSidecar(c.name) && c.started === true) { if (c.ready) ready++; continue; }
    if (t !== undefined) {
      if ((t.reason ?? '') === '') reason = (t.signal ?? 0) !== 0 ? `Init:Signal:${t.signal ?? 0}` : `Init:ExitCode:${t.exitCode}`;
      else reason = `Init:${t.reason ?? ''}`;
    } else if (w !== undefined && (w.reason ?? '') !== '' && w.reason !== 'PodInitializing') {
      reason = `Init:${w.reason ?? ''}`;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }
  const initialized = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const cs = status.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      if (c === undefined) continue;
      restarts += c.restartCount ?? 0;
      lastRestart = later(lastRestart, c.lastState?.terminated?.finishedAt);
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w !== undefined && (w.reason ?? '') !== '') reason = w.reason ?? '';
      else if (t !== undefined && (t.reason ?? '') !== '') reason = t.reason ?? '';
      else if (t !== undefined) reason = (t.signal ?? 0) !== 0 ? `Signal:${t.signal ?? 0}` : `ExitCode:${t.exitCode}`;
      else if (c.ready && c.state?.running !== undefined) { hasRunning = true; ready++; }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  const deleting = pod.metadata.deletionTimestamp !== undefined;
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  const restartsText = restarts !== 0 && lastRestart !== '' ? `${restarts} (${translateTimestampSince(lastRestart, now)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

export const podTable: readonly TableColumn<Pod>[] = [
  nameColumn<Pod>(),
  { name: 'Ready', type: 'string', cell: (p, now) => podCells(p, now).ready },
  { name: 'Status', type: 'string', cell: (p, now) => podCells(p, now).status },
  { name: 'Restarts', type: 'string', cell: (p, now) => podCells(p, now).restarts },
  ageColumn<Pod>(),
  { name: 'IP', type: 'string', priority: 1,    cell: (p) => p.status?.podIPs?.[0]?.ip ?? '<none>' },
  { name: 'Node', type: 'string', priority: 1,    cell: (p) => ((p.spec.nodeName ?? '') === '' ? '<none>' : p.spec.nodeName ?? '') },
  { name: 'Nominated Node', type: 'string', priority: 1,    cell: (p) => ((p.status?.nominatedNodeName ?? '') === '' ? '<none>' : p.status?.nominatedNodeName ?? '') },
  { name: 'Readiness Gates', type: 'string', priority: 1,    cell: (p) => {
      const gates = p.spec.readinessGates ?? [];
      if (gates.length === 0) return '<none>';
      const trueCount = gates.filter((g) => (p.status?.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length;
      return `${trueCount}/${gates.length}`;
    } },
];
