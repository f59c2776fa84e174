// VolumeAttachments (pkg/registry/storage/volumeattachment): cluster-scoped, status subresource,
// spec immutable after create.
import { fieldPath, forbidden, inclusiveRangeErrorField, invalid, required, tooLong, type FieldError } from './errors.ts';
import { GoSyntax } from '../../../apimachinery/errors/field-errors.ts';
import { validatePersistentVolumeSpec } from '../../core/persistentvolume/validation.ts';
import { validateCSIDriverName } from '../../core/persistentvolume/sources.ts';
import { persistentVolumeSpecValue } from '../../core/persistentvolume/source-value.ts';
import { defaultVolumeSources } from '../../core/volume-defaults.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { VolumeAttachment, VolumeError } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;
const MAX_ATTACHED_VOLUME_METADATA_SIZE = 256 * 1024;
const MAX_VOLUME_ERROR_MESSAGE_SIZE = 1024;

function validateVolumeError(e: RO<VolumeError> | undefined, p: ReturnType<typeof fieldPath>): FieldError[] {
  if (e === undefined) return [];
  const errs: FieldError[] = [];
  // kube reports the metadata limit here, not the message limit (sic).
  if ((e.message ?? '').length > MAX_VOLUME_ERROR_MESSAGE_SIZE) errs.push(tooLong(p.child('message'), '', MAX_ATTACHED_VOLUME_METADATA_SIZE));
  if (e.errorCode !== undefined && e.errorCode < 0) errs.push(inclusiveRangeErrorField(p.child('errorCode'), e.errorCode));
  return errs;
}

function validateVolumeAttachment(va: RO<VolumeAttachment>): FieldError[] {
  const errs = validateObjectMeta(va.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = va.spec ?? {};
  const p = fieldPath('spec');
  errs.push(...validateCSIDriverName(spec.attacher ?? '', p.child('attacher')));
  const src = spec.source ?? {};
  const hasPV = src.persistentVolumeName !== undefined && src.persistentVolumeName !== null;
  const inline = src.inlineVolumeSpec;
  const hasInline = inline !== undefined && inline !== null;
  if (!hasPV && !hasInline) errs.push(required(p.child('source'), 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasPV && hasInline) errs.push(forbidden(p.child('source'), 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasPV && src.persistentVolumeName === '') errs.push(required(p.child('source', 'persistentVolumeName'), 'must specify non empty persistentVolumeName'));
  else if (hasInline) errs.push(...validatePersistentVolumeSpec(inline as Record<string, unknown>, '', true, p.child('source', 'inlineVolumeSpec')));
  const node = spec.nodeName ?? '';
  for (const m of nameIsDNSSubdomain(node, false)) errs.push(invalid(p.child('nodeName'), node, m));
  errs.push(...validateVolumeAttachmentStatus(va));
  // ValidatePersistentVolumeName runs on a set name, empty or not.
  if (hasPV) for (const m of nameIsDNSSubdomain(src.persistentVolumeName ?? '', false)) errs.push(invalid('spec.source.persistentVolumeName', src.persistentVolumeName, m));
  return errs;
}

function validateVolumeAttachmentStatus(va: RO<VolumeAttachment>): FieldError[] {
  const st = va.status ?? {};
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(st.attachmentMetadata ?? {})) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > MAX_ATTACHED_VOLUME_METADATA_SIZE) errs.push(tooLong('status.attachmentMetadata', '', MAX_ATTACHED_VOLUME_METADATA_SIZE));
  errs.push(...validateVolumeError(st.attachError, fieldPath('status', 'attachError')));
  errs.push(...validateVolumeError(st.detachError, fieldPath('status', 'detachError')));
  return errs;
}

/** The spec as kube prints it (the internal Go struct as encoding/json writes it). */
function specValue(spec: RO<NonNullable<VolumeAttachment['spec']>>): GoSyntax {
  const src = spec.source ?? {};
  const inline = src.inlineVolumeSpec;
  return new GoSyntax(JSON.stringify({ Attacher: spec.attacher ?? '',
    Source: { PersistentVolumeName: src.persistentVolumeName ?? null,
      InlineVolumeSpec: inline === undefined || inline === null ? null : persistentVolumeSpecValue(inline as Record<string, unknown>) },
    NodeName: spec.nodeName ?? '' }));
}

function validateVolumeAttachmentUpdate(va: RO<VolumeAttachment>, old: RO<VolumeAttachment>): FieldError[] {
  return deepEqual(va.spec ?? {}, old.spec ?? {}) ? [] : [invalid('spec', specValue(va.spec ?? {}), 'field is immutable')];
}

const strategy = specStatusStrategy<VolumeAttachment>({ allowUnconditionalUpdate: false, validate: validateVolumeAttachment, validateUpdate: validateVolumeAttachmentUpdate, hasStatus: true });

export const volumeAttachments = {
  group: 'storage.k8s.io', kind: 'VolumeAttachment', resource: 'volumeattachments', singular: 'volumeattachment', namespaced: false,
  goZeroValues: (o) => { for (const [path, v] of [[['status'], { attached: false }]] as const) setZero(o, path, v); },
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  strategy,
  // SetObjectDefaults_VolumeAttachment: the inline spec's volume sources get their plugin defaults
  defaults: (va: VolumeAttachment) => {
    const inline = va.spec?.source?.inlineVolumeSpec;
    if (inline !== undefined && inline !== null) defaultVolumeSources(inline);
  },
  statusStrategy: statusStrategy(strategy, { validate: (va) => validateVolumeAttachmentStatus(va), resetMetadata: {} }),
  table: [
    nameColumn<VolumeAttachment>(),
    column<VolumeAttachment>('Attacher', 'string', (va) => va.spec?.attacher ?? '', { format: 'name' }),
    column<VolumeAttachment>('PV', 'string', (va) => va.spec?.source?.persistentVolumeName ?? ''),
    column<VolumeAttachment>('Node', 'string', (va) => va.spec?.nodeName ?? ''),
    column<VolumeAttachment>('Attached', 'boolean', (va) => va.status?.attached ?? false),
    ageColumn<VolumeAttachment>(),
  ],
} satisfies ResourceDefinition<VolumeAttachment>;
