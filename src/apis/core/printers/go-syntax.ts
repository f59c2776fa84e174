// Go's %#v of the scalar values validation messages embed (strings, time.Time).

/** %q / %#v of a string. */
export const goQuote = (s: string): string => JSON.stringify(s);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * %#v of a metav1.Time (time.Time's GoString): `time.Date(2024, time.January, 1, 0, 0, 0, 0,
 * time.Local)`, since decoding puts times in the server's local zone (UTC here).
 */
export function goTime(rfc3339: string | null | undefined): string {
  const t = rfc3339 === undefined || rfc3339 === null || rfc3339 === '' ? Number.NaN : Date.parse(rfc3339);
  if (Number.isNaN(t)) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const d = new Date(t);
  const nanos = Number(/\.(\d+)/.exec(rfc3339 ?? '')?.[1]?.padEnd(9, '0').slice(0, 9) ?? '0');
  return `time.Date(${d.getUTCFullYear()}, time.${MONTHS[d.getUTCMonth()] ?? ''}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ` +
    `${d.getUTCSeconds()}, ${nanos}, time.Local)`;
}
