// PodTemplates (pkg/registry/core/podtemplate): a pod spec validated and defaulted like a pod's.
import { fieldPath, forbidden, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateAnnotations, validateLabels, validateObjectMeta, repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { bumpGenerationIfChanged, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { formatLabels, layoutContainerCells } from '../printers/format.ts';
import { defaultPodSpec } from '../pod/defaults.ts';
import { dropDisabledTemplateFields } from '../pod/disabled-fields.ts';
import { validateAppArmorAnnotationsAndFields, validatePodSpecificAnnotations, validateSeccompAnnotationsAndFields } from '../pod/annotations.ts';
import { validatePodSpec } from '../pod/validation.ts';
import { podTemplateWarnings } from '../pod/warnings.ts';
import type { PodTemplate, PodTemplateSpec } from '../v1/types.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

/**
 * ValidatePodTemplateSpec: template labels/annotations and the pod spec under `path`. kube names
 * the template's labels and annotations `<path>.labels`, without `metadata`.
 */
export function validatePodTemplateSpec(t: DeepReadonly<PodTemplateSpec>, path = fieldPath('template')): FieldError[] {
  const spec = t.spec ?? { containers: [] };
  const errs = [
    ...validateLabels(t.metadata?.labels, path.child('labels')),
    ...validateAnnotations(t.metadata?.annotations, path.child('annotations')),
    ...validatePodSpecificAnnotations(t.metadata?.annotations, spec, path.child('annotations')),
    ...validatePodSpec(spec, path.child('spec')),
    ...validateSeccompAnnotationsAndFields(t.metadata?.annotations, spec, path.child('spec')),
    ...validateAppArmorAnnotationsAndFields(t.metadata?.annotations, spec, path.child('spec')),
  ];
  const ephemeral = t.spec?.ephemeralContainers;
  if (Array.isArray(ephemeral) && ephemeral.length > 0) {
    errs.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

export function validatePodTemplate(pt: DeepReadonly<PodTemplate>): FieldError[] {
  const errs = validateObjectMeta(pt.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  errs.push(...validatePodTemplateSpec(pt.template ?? { spec: { containers: [] } }));
  return errs;
}

export function defaultPodTemplate(pt: PodTemplate): void {
  pt.template ??= { spec: { containers: [] } };
  pt.template.spec ??= { containers: [] };
  defaultPodSpec(pt.template.spec);
}

export const podTemplates = {
  group: '', kind: 'PodTemplate', resource: 'podtemplates', singular: 'podtemplate', namespaced: true,
  goZeroValues: (o) => { for (const [path, v] of [[['template', 'metadata'], {}]] as const) setZero(o, path, v); },
  strategy: specStatusStrategy<PodTemplate>({
    prepareForCreate(_ctx, pt) {
      pt.metadata.generation = 1;
      dropDisabledTemplateFields(pt.template, undefined);
    },
    validate: (pt) => validatePodTemplate(pt),
    warningsOnCreate: (pt) => podTemplateWarnings(fieldPath('template'), pt.template),
    prepareForUpdate(_ctx, pt, old) {
      dropDisabledTemplateFields(pt.template, old.template);
      pt.metadata.generation = old.metadata.generation ?? 1;
      bumpGenerationIfChanged(pt.metadata, pt.template, old.template);
    },
    // ValidatePodTemplateUpdate repeats the metadata update checks
    revalidateOnUpdate: false,
    validateUpdate: (pt, old) => [...validatePodTemplate(pt).filter((e) => !e.field.startsWith('metadata.')),
      ...repeatedMetadataErrors(pt.metadata, old.metadata, { update: true })],
    warningsOnUpdate: (pt, old) => (pt.metadata.generation !== old.metadata.generation ? podTemplateWarnings(fieldPath('template'), pt.template) : []),
  }),
  defaults: defaultPodTemplate,
  table: [
    nameColumn<PodTemplate>(),
    { name: 'Containers', type: 'string', cell: (pt) => layoutContainerCells(pt.template?.spec?.containers ?? []).names },
    { name: 'Images', type: 'string', cell: (pt) => layoutContainerCells(pt.template?.spec?.containers ?? []).images },
    { name: 'Pod Labels', type: 'string', cell: (pt) => formatLabels(pt.template?.metadata?.labels) },
  ],
} satisfies ResourceDefinition<PodTemplate>;
