// ResourceClaim status updates, the reservedFor part of kube's validateResourceClaimStatusUpdate
// (pkg/apis/resource/validation): each consumer named fully, once per UID, at most 256, and only
// on an allocated claim; a claim being deleted may lose consumers but not gain them. The
// allocation result and device status checks are not done here.
import { duplicate, fieldPath, forbidden, required, tooMany, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { ResourceClaim } from '../v1/types.ts';

const RESERVED_FOR_MAX = 256;

interface Consumer { apiGroup?: string; resource?: string; name?: string; uid?: string }

const consumersOf = (c: DeepReadonly<ResourceClaim>): DeepReadonly<Consumer>[] => (c.status?.reservedFor ?? []) as DeepReadonly<Consumer>[];
const present = (v: unknown): boolean => v !== undefined && v !== null;

export function validateResourceClaimStatusUpdate(claim: DeepReadonly<ResourceClaim>, old: DeepReadonly<ResourceClaim>): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('status', 'reservedFor');
  const consumers = consumersOf(claim);
  if (consumers.length > RESERVED_FOR_MAX) errs.push(tooMany(p, consumers.length, RESERVED_FOR_MAX));
  const seen = new Set<string>();
  consumers.forEach((ref, i) => {
    const at = p.index(i);
    if ((ref.resource ?? '') === '') errs.push(required(at.child('resource')));
    if ((ref.name ?? '') === '') errs.push(required(at.child('name')));
    if ((ref.uid ?? '') === '') errs.push(required(at.child('uid')));
    const uid = ref.uid ?? '';
    if (seen.has(uid)) errs.push(duplicate(at, uid));
    seen.add(uid);
  });
  if (consumers.length > 0) {
    if (!present(claim.status?.allocation)) errs.push(forbidden(p, 'may not be specified when `allocated` is not set'));
    else if (present(claim.metadata.deletionTimestamp)) {
      const before = new Set(consumersOf(old).map((r) => JSON.stringify([r.apiGroup ?? '', r.resource ?? '', r.name ?? '', r.uid ?? ''])));
      if (consumers.some((r) => !before.has(JSON.stringify([r.apiGroup ?? '', r.resource ?? '', r.name ?? '', r.uid ?? ''])))) {
        errs.push(forbidden(p, 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  return errs;
}
