// Go's %#v (fmt's Go-syntax representation) of the values kube's messages embed: string slices
// and maps, times. Strings inside are quoted with strconv.Quote (quote.ts).
import { goQuote } from './quote.ts';

/** %#v of a []string: `[]string{"a", "b"}`; `[]string(nil)` for a nil slice (undefined or null). */
export function goStringSlice(v: readonly string[] | null | undefined): string {
  return v === undefined || v === null ? '[]string(nil)' : `[]string{${v.map(goQuote).join(', ')}}`;
}

/** %#v of a map[string][]string (user.Info's extra): keys sorted, `map[string][]string(nil)` when nil. */
export function goStringSliceMap(m: Readonly<Record<string, readonly string[]>> | null | undefined): string {
  if (m === null || m === undefined) return 'map[string][]string(nil)';
  return `map[string][]string{${Object.keys(m).sort().map((k) => `${goQuote(k)}:${goStringSlice(m[k])}`).join(', ')}}`;
}

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

/** Go's *os.PathError text for a failed file operation: `open /x: no such file or directory`. */
export function goPathError(op: string, path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return `${op} ${path}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`;
}
