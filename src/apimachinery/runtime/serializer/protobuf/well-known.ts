// JSON forms of the meta types that Go marshals specially: Time (RFC 3339, whole seconds, UTC),
// MicroTime (RFC 3339 with 6 fractional digits, UTC) and Duration (Go's time.Duration string).

/** Seconds since the epoch of an RFC 3339 time; throws on anything else. */
export function parseTimeSeconds(v: string): number {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms) || !/^\d{4}-\d\d-\d\dT/.test(v)) throw new Error(`invalid time ${JSON.stringify(v)}`);
  return Math.floor(ms / 1000);
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** "2026-01-02T03:04:05Z", as metav1.Time marshals to JSON. */
export function formatTime(seconds: number): string {
  return `${isoSeconds(seconds)}Z`;
}

const MICRO_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/;

/** Seconds and nanoseconds (truncated to microseconds) of an RFC 3339 time. */
export function parseMicroTime(v: string): { seconds: number; nanos: number } {
  const m = MICRO_RE.exec(v);
  const ms = m === null ? NaN : Date.parse(`${m[1] ?? ''}${m[3] ?? ''}`);
  if (m === null || !Number.isFinite(ms)) throw new Error(`invalid time ${JSON.stringify(v)}`);
  const micros = Number(((m[2] ?? '') + '000000').slice(0, 6));
  return { seconds: Math.floor(ms / 1000), nanos: micros * 1000 };
}

/** "2026-01-02T03:04:05.123456Z", as metav1.MicroTime marshals to JSON. */
export function formatMicroTime(seconds: number, nanos: number): string {
  const micros = Math.floor(nanos / 1000);
  return `${isoSeconds(seconds)}.${String(micros).padStart(6, '0')}Z`;
}

const UNITS: Readonly<Record<string, number>> = {
  ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9,
};

/** Nanoseconds of a Go duration string ("1h2m3.5s", "300ms", "-1.5h", "0"). */
export function parseDuration(v: string): number {
  const m = /^([-+]?)(.+)$/.exec(v);
  const body = m?.[2] ?? '';
  if (body === '0') return 0;
  let total = 0;
  let rest = body;
  while (rest !== '') {
    const part = /^(\d*\.?\d*)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    const unit = part === null ? undefined : UNITS[part[2] ?? ''];
    if (part === null || unit === undefined || part[1] === '' || part[1] === '.') {
      throw new Error(`time: invalid duration ${JSON.stringify(v)}`);
    }
    total += Number(part[1]) * unit;
    rest = rest.slice(part[0].length);
  }
  if (body === '') throw new Error(`time: invalid duration ${JSON.stringify(v)}`);
  return Math.round(m?.[1] === '-' ? -total : total);
}

function fraction(n: number, digits: number): string {
  // n < 10^digits; prints ".ddd" without trailing zeros, or nothing.
  const s = String(n).padStart(digits, '0').replace(/0+$/, '');
  return s === '' ? '' : `.${s}`;
}

/** Go's time.Duration.String() of a nanosecond count. */
export function formatDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const u = Math.abs(ns);
  if (u < 1e3) return `${sign}${u}ns`;
  if (u < 1e6) return `${sign}${Math.floor(u / 1e3)}${fraction(u % 1e3, 3)}µs`;
  if (u < 1e9) return `${sign}${Math.floor(u / 1e6)}${fraction(u % 1e6, 6)}ms`;
  const totalSeconds = Math.floor(u / 1e9);
  const h = Math.floor(totalSeconds / 3600);
  const min = Math.floor((totalSeconds % 3600) / 60);
  const s = `${totalSeconds % 60}${fraction(u % 1e9, 9)}s`;
  if (h > 0) return `${sign}${h}h${min}m${s}`;
  if (min > 0) return `${sign}${min}m${s}`;
  return `${sign}${s}`;
}
