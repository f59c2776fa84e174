// Apply conflicts and the 409 Status kube sends for them (merge/conflict.go and
// fieldmanager's NewConflictError): a cause per conflicting field, and a message that
// lists the fields per manager.
// Counterpart of sigs.k8s.io/structured-merge-diff/v6/merge/conflict.go and
// k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go.
import { StatusError } from '../errors/status-error.ts';
import type { FailureStatus } from '../errors/status-error.ts';
import type { StatusCause } from '../meta/types.ts';
import { compareStrings, pathToString } from './path-element.ts';
import type { Path } from './path-element.ts';

export interface Conflict { readonly manager: string; readonly path: Path }

/** Thrown by the updater when an apply without force changes fields other managers own. */
export class ConflictsError extends Error {
  override readonly name = 'ConflictsError';
  readonly conflicts: readonly Conflict[];
  constructor(conflicts: readonly Conflict[]) {
    super(conflicts.map((c) => `conflict with ${JSON.stringify(c.manager)}: ${pathToString(c.path)}`).join('\n'));
    this.conflicts = conflicts;
  }
}

/** printManager: `"kubectl"`, `"m" with subresource "status"`, and ` using v1` for Update managers. */
export function printManager(manager: string): string {
  let entry: { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  try {
    entry = JSON.parse(manager) as typeof entry;
    if (typeof entry !== 'object' || entry === null) return JSON.stringify(manager);
  } catch {
    return JSON.stringify(manager);
  }
  let s = JSON.stringify(entry.manager ?? '');
  if (entry.subresource !== undefined && entry.subresource !== '') s += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === 'Update') {
    return entry.time === undefined ? `${s} using ${entry.apiVersion ?? ''}` : `${s} using ${entry.apiVersion ?? ''} at ${entry.time}`;
  }
  return s;
}

export function conflictMessage(conflicts: readonly Conflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only !== undefined) {
    return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${pathToString(only.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m) ?? []) lines.push(`- ${pathToString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** NewConflictError: 409 Conflict with a FieldManagerConflict cause per field. */
export function newApplyConflict(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathToString(c.path),
  }));
  const status: FailureStatus = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: conflictMessage(conflicts), reason: 'Conflict', details: { causes }, code: 409,
  };
  return new StatusError(status);
}
