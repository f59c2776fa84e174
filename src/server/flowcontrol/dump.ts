// /debug/api_priority_and_fairness/dump_priority_levels, dump_queues and dump_requests
// (?includeRequestDetails=1): plain-text tables, aligned as Go's tabwriter aligns kube's (cells
// end in ",", columns at least 8 wide and one space wider than their widest cell, the last
// column not padded).
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/apf_controller_debug.go.
import type { ServerResponse } from 'node:http';
import type { APFController, PriorityLevelState } from './controller.ts';
import { heldSeats, type RequestDigest } from './queue-set.ts';

/** Go's tabwriter.NewWriter(w, 8, 0, 1, ' ', 0) over rows of cells. */
export function tabulate(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) {
    r.slice(0, -1).forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 8, c.length + 2); });
  }
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : `${c},`.padEnd(widths[i] ?? 8))).join('')).join('\n') + '\n';
}

/** Go's time.RFC3339Nano in UTC: the fraction with its trailing zeros cut. */
export function rfc3339Nano(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}

const sorted = (ctl: APFController): [string, PriorityLevelState][] => [...ctl.levels].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export function dumpPriorityLevels(ctl: APFController): string {
  const rows = [['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests',
    'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests']];
  for (const [name, s] of sorted(ctl)) {
    const q = s.queues;
    rows.push([name, String(q.dump().filter((x) => x.waiting.length > 0).length), String(q.isIdle), String(s.quiescing),
      String(q.waitingCount), String(q.executingCount), String(q.dispatched), String(q.rejected), String(q.timedOut), String(q.cancelled)]);
  }
  return tabulate(rows);
}

/** Go's time.Duration String() of a sub-minute duration in ms: "0s", "500µs", "12.5ms", "1.5s". */
export function goDuration(ms: number): string {
  const trim = (n: number): string => String(Number(n.toFixed(9)));
  if (ms === 0) return '0s';
  if (ms < 1) return `${trim(ms * 1000)}µs`;
  if (ms < 1000) return `${trim(ms)}ms`;
  return `${trim(ms / 1000)}s`;
}

/** kube prints virtual times as seat-seconds with 8 decimals ("0.00000000ss"). */
const seatSeconds = (n: number): string => `${n.toFixed(8)}ss`;

export function dumpQueues(ctl: APFController): string {
  const rows = [['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR',
    'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']];
  for (const [name, s] of sorted(ctl)) {
    s.queues.dump().forEach((q, i) => {
      const seats = q.waiting.reduce((n, r) => n + r.seats, 0);
      const maxSeats = q.waiting.reduce((n, r) => n + heldSeats(r), 0);
      rows.push([name, String(i), String(q.waiting.length), String(q.executing.length), String(q.seatsInUse),
        seatSeconds(q.nextDispatchR), String(seats), String(maxSeats), seatSeconds(0)]);
    });
  }
  return tabulate(rows);
}

export function dumpRequests(ctl: APFController, details: boolean): string {
  const head = ['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime',
    'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime'];
  const rows = [details ? [...head, 'UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource'] : head];
  const time = (ns: bigint | undefined): string => (ns === undefined ? '0001-01-01T00:00:00Z' : rfc3339Nano(ns));
  for (const [name, s] of sorted(ctl)) {
    const add = (iq: number, ir: number, r: RequestDigest): void => {
      const row = [name, r.flowSchema, String(iq), String(ir), r.distinguisher, time(r.arrived), String(r.seats), String(r.finalSeats ?? 0),
        goDuration(r.additionalLatencyMs ?? 0), time(r.started)];
      if (details) {
        const gv = r.info.apiGroup === '' ? r.info.apiVersion : r.info.apiVersion === '' ? r.info.apiGroup : `${r.info.apiGroup}/${r.info.apiVersion}`;
        row.push(r.user, r.info.verb, r.info.path, r.info.namespace, r.info.name, gv, r.info.resource, r.info.subresource);
      }
      rows.push(row);
    };
    s.queues.dump().forEach((q, iq) => {
      q.waiting.forEach((r, ir) => add(iq, ir, r));
      for (const r of q.executing) add(iq, -1, r);
    });
    for (const r of s.queues.queuelessExecuting()) add(-1, -1, r);
  }
  return tabulate(rows);
}

/** The three endpoints, as non-resource handlers (kube installs them unlisted). */
export function dumpHandlers(ctl: APFController): [string, (res: ServerResponse, query: URLSearchParams) => void][] {
  const send = (res: ServerResponse, body: string): void => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(body);
  };
  const base = '/debug/api_priority_and_fairness/';
  return [
    [`${base}dump_priority_levels`, (res) => send(res, dumpPriorityLevels(ctl))],
    [`${base}dump_queues`, (res) => send(res, dumpQueues(ctl))],
    [`${base}dump_requests`, (res, q) => send(res, dumpRequests(ctl, (q.get('includeRequestDetails') ?? '') !== ''))],
  ];
}
