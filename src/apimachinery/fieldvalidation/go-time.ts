// metav1.Time and metav1.MicroTime as their UnmarshalJSON reads them: a JSON string parsed with
// Go's time.Parse against RFC 3339 (Time) or RFC 3339 with exactly six fractional digits
// (MicroTime), then held as a UTC instant that marshals back as "…:05Z" or "…:05.123456Z".
// Anything else fails the decode with Go's own message, so a stored timestamp is always one
// every client can parse.
import { goQuote } from '../goformat/index.ts';

export type TimeLayout = 'time' | 'microtime';

const LAYOUT: Readonly<Record<TimeLayout, string>> = {
  time: '2006-01-02T15:04:05Z07:00',
  microtime: '2006-01-02T15:04:05.000000Z07:00',
};

export type TimeParse = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string };

interface Element { readonly layout: string; readonly re: RegExp }

const DIGITS2 = /^\d{2}/;
const elements = (layout: TimeLayout): readonly Element[] => [
  { layout: '2006', re: /^\d{4}/ }, { layout: '-', re: /^-/ }, { layout: '01', re: DIGITS2 }, { layout: '-', re: /^-/ },
  { layout: '02', re: DIGITS2 }, { layout: 'T', re: /^T/ }, { layout: '15', re: DIGITS2 }, { layout: ':', re: /^:/ },
  { layout: '04', re: DIGITS2 }, { layout: ':', re: /^:/ }, { layout: '05', re: DIGITS2 },
  // Time: Go accepts a fraction of any length after the seconds even where the layout has none.
  ...(layout === 'microtime' ? [{ layout: '.000000', re: /^[.,]\d{6}/ }] : [{ layout: '', re: /^(?:[.,]\d+)?/ }]),
  { layout: 'Z07:00', re: /^(?:Z|[+-]\d{2}:\d{2})/ },
];

const ELEMENTS: Readonly<Record<TimeLayout, readonly Element[]>> = { time: elements('time'), microtime: elements('microtime') };

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Parses `text` as Go's time.Parse(layout) would; on success the UTC form Go marshals. */
export function parseGoTime(text: string, layout: TimeLayout): TimeParse {
  const fail = (message: string): TimeParse => ({ ok: false, error: `parsing time ${goQuote(text)}${message}` });
  const parts: string[] = [];
  let rest = text;
  for (const el of ELEMENTS[layout]) {
    const m = el.re.exec(rest);
    if (m === null) return fail(` as ${goQuote(LAYOUT[layout])}: cannot parse ${goQuote(rest)} as ${goQuote(el.layout)}`);
    parts.push(m[0]);
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') return fail(`: extra text: ${goQuote(rest)}`);
  const [year, , month, , day, , hour, , minute, , second, fraction = '', zone = 'Z'] = parts;
  const n = (s: string | undefined): number => Number(s);
  // In the order time.Parse meets them: each element's own range, then the day within its month.
  if (n(month) < 1 || n(month) > 12) return fail(': month out of range');
  if (n(day) > 31) return fail(': day out of range');
  if (n(hour) > 23) return fail(': hour out of range');
  if (n(minute) > 59) return fail(': minute out of range');
  if (n(second) > 59) return fail(': second out of range');
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const [hh = 0, mm = 0] = zone.slice(1).split(':').map(Number);
    if (hh > 24) return fail(': time zone offset hour out of range');
    if (mm > 60) return fail(': time zone offset minute out of range');
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hh * 60 + mm);
  }
  if (n(day) < 1 || n(day) > daysIn(n(month), n(year))) return fail(': day out of range');
  const local = Date.UTC(n(year), n(month) - 1, n(day), n(hour), n(minute), n(second));
  // Date.UTC maps years 0–99 to 1900–1999; Go does not.
  const base = new Date(local);
  base.setUTCFullYear(n(year));
  const utc = new Date(base.getTime() - offsetMinutes * 60_000);
  const whole = `${String(utc.getUTCFullYear()).padStart(4, '0')}-${utc.toISOString().slice(5, 19)}`;
  if (layout === 'time') return { ok: true, value: `${whole}Z` };
  return { ok: true, value: `${whole}.${fraction.slice(1, 7)}Z` };
}

/** metav1.Time / MicroTime UnmarshalJSON of a decoded JSON value: null stays null (the zero time). */
export function unmarshalGoTime(v: unknown, layout: TimeLayout): TimeParse | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string') {
    const what = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'number' : 'object';
    return { ok: false, error: `json: cannot unmarshal ${what} into Go value of type string` };
  }
  return parseGoTime(v, layout);
}
