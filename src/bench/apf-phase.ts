// The cost of API priority and fairness and of audit: GETs of one object as an ordinary user
// (impersonated, so that requests go through a queued priority level, global-default) on the server
// with APF on, the same on a second server started with --enable-priority-and-fairness=false (the
// max-in-flight limit instead), and on a third with an audit policy of level None and a log file
// (every request is evaluated against the policy, none is written), in alternating rounds; each
// figure is the median of its rounds.
// No Go counterpart: the bench.
import { sendRaw, type HttpTarget } from './http-client.ts';
import { runLoad } from './load.ts';
import { figure, type Figure } from './report.ts';
import { median } from './stats.ts';

const DURATION_MS = 3_000;
const MAX_OPS = 50_000;
const ROUNDS = 3;
const PATH = '/api/v1/namespaces/default';

async function gets(t: HttpTarget, workers: number): Promise<number> {
  const r = await runLoad({
    workers, durationMs: DURATION_MS, maxOps: MAX_OPS,
    op: async () => {
      const res = await sendRaw(t, { method: 'GET', path: PATH, headers: { 'impersonate-user': 'bench' } });
      if (res.status !== 200) throw new Error(`apf: GET ${PATH} answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
    },
  });
  return r.perSecond;
}

/**
 * get-no-apf: GETs/s without priority and fairness; get-apf: with it, against the former as its
 * baseline; get-audit-none: with it and an audit policy of level None, against get-apf.
 */
export async function measureAPF(withAPF: HttpTarget, withoutAPF: HttpTarget, auditNone: HttpTarget, workers: number,
  log: (m: string) => void): Promise<Figure[]> {
  log('apf: GETs with and without API priority and fairness, and with an audit policy of level None…');
  await gets(withAPF, workers);
  await gets(withoutAPF, workers);
  await gets(auditNone, workers);
  const on: number[] = [];
  const off: number[] = [];
  const audited: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    off.push(await gets(withoutAPF, workers));
    on.push(await gets(withAPF, workers));
    audited.push(await gets(auditNone, workers));
  }
  return [
    figure('get-no-apf', 'ops/s', median(off), undefined), figure('get-apf', 'ops/s', median(on), median(off)),
    figure('get-audit-none', 'ops/s', median(audited), median(on)),
  ];
}
