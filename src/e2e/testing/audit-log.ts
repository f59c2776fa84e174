// Reading audit logs in tests: the JSON events of a log file, by audit ID, waiting for a stage.
// No Go counterpart: test support.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EventJSON {
  readonly level: string;
  readonly auditID: string;
  readonly stage: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: { username?: string; groups?: string[] };
  readonly impersonatedUser?: { username?: string; groups?: string[] };
  readonly sourceIPs?: string[];
  readonly userAgent?: string;
  readonly objectRef?: Record<string, string>;
  readonly responseStatus?: { code: number; status?: string; reason?: string; message?: string };
  readonly requestObject?: Record<string, unknown>;
  readonly responseObject?: Record<string, unknown>;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Record<string, string>;
  readonly [k: string]: unknown;
}

export async function readEvents(path: string): Promise<EventJSON[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as EventJSON);
}

/** A guard against a hang, not a timing assertion. */
const GUARD_MS = 20_000;

/** The events of one request once its `stage` event is written (the log is written as the request ends). */
export async function eventsOf(path: string, auditID: string, stage = 'ResponseComplete'): Promise<EventJSON[]> {
  const deadline = Date.now() + GUARD_MS;
  for (;;) {
    const evs = (await readEvents(path)).filter((e) => e.auditID === auditID);
    if (evs.some((e) => e.stage === stage)) return evs;
    if (Date.now() > deadline) throw new Error(`no ${stage} event for audit ID ${auditID} in ${path}: ${JSON.stringify(evs)}`);
    await sleep(20);
  }
}
