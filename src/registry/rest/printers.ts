// Table columns every resource shares (Name, Age) and the age text of `kubectl get`
// (duration.HumanDuration and the printers' translateTimestampSince).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { TableColumn } from './strategy.ts';

/** HumanDuration: "45s", "3m2s", "10m", "5h30m", "12h", "3d4h", "20d", "2y30d", "9y". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(seconds / 3600);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** "<unknown>" for a missing timestamp, else the age at `now` (ms since epoch). */
export function translateTimestampSince(timestamp: string | null | undefined, now: number): string {
  if (timestamp === undefined || timestamp === null || timestamp === '') return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

/** The NAME column (format "name", so `kubectl get -o name` works from Tables). */
export function nameColumn<T extends KubeObject>(): TableColumn<T> {
  return {
    name: 'Name', type: 'string', format: 'name',
    description: 'The name of the object, unique within its namespace (or the cluster, for cluster-scoped objects).',
    cell: (o) => o.metadata.name ?? '',
  };
}

/** The AGE column: time since metadata.creationTimestamp. */
export function ageColumn<T extends KubeObject>(): TableColumn<T> {
  return {
    name: 'Age', type: 'string',
    description: 'The time since the server created the object (metadata.creationTimestamp).',
    cell: (o, now) => translateTimestampSince(o.metadata.creationTimestamp, now),
  };
}
