// StatefulSet validation (pkg/apis/apps/validation: ValidateStatefulSet*). The pod template is
// validated as every workload's, with the controller-owned hostname and subdomain left out and the
// volume claim templates counted as volumes.
import {
  fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import {
  deepEqual, nameIsDNSLabel, validateAnnotations, validateLabels, validateNonnegativeField, validateObjectMeta,
} from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Label } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validatePersistentVolumeClaimSpec } from '../../core/persistentvolumeclaim/validation.ts';
import { validatePodTemplateSpec } from '../../core/podtemplate/podtemplate.ts';
import type { PodTemplateSpec } from '../../core/v1/types.ts';
import type {
  RollingUpdateStatefulSetStrategy, StatefulSet, StatefulSetSpec, StatefulSetStatus,
} from '../v1/types.ts';
import { goIntOrString, goLabelSelector, goStatefulSetRollingUpdate, goStrategy, goSyntax } from '../validation/go-syntax.ts';
import {
  intOrPercentValue, isNotMoreThan100Percent, selectorOf, validateCollisionCountUpdate, validateLongRunningTemplate,
  validateNonnegativeCounters, validateNotGreaterThan, validatePositiveIntOrPercent, validateRequiredSelector,
  validateTemplateLabelsMatch,
} from '../validation/workload.ts';

type RO<T> = DeepReadonly<T>;

function validateRollingUpdateStatefulSet(ru: RO<RollingUpdateStatefulSetStrategy>, p: FieldPath): FieldError[] {
  const errs = validateNonnegativeField(ru.partition ?? 0, p.child('partition'));
  if (ru.maxUnavailable !== undefined) {
    const mp = p.child('maxUnavailable');
    errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, mp));
    if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalid(mp, goSyntax(goIntOrString(ru.maxUnavailable)), 'cannot be 0'));
    errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, mp));
  }
  return errs;
}

function validateRetentionPolicyType(v: string | undefined, p: FieldPath): FieldError[] {
  const valid = ['Retain', 'Delete'];
  return valid.includes(v ?? '') ? [] : [notSupported(p, v ?? '', valid)];
}

/**
 * The template as ValidateStatefulSetSpec validates it: hostname and subdomain are the
 * controller's to set, and each volume claim template is a volume of the pods.
 */
function templateToValidate(t: RO<PodTemplateSpec>, spec: RO<StatefulSetSpec>): RO<PodTemplateSpec> {
  const claims = spec.volumeClaimTemplates ?? [];
  if ((t.spec?.subdomain ?? '') === '' && (t.spec?.hostname ?? '') === '' && claims.length === 0) return t;
  const podSpec = { ...t.spec, subdomain: '', hostname: '' };
  if (claims.length > 0) {
    const fromClaims = new Map(claims.map((c) => [c.metadata?.name ?? '', { name: c.metadata?.name ?? '', persistentVolumeClaim: { claimName: c.metadata?.name ?? '' } }]));
    podSpec.volumes = [...fromClaims.values(), ...(t.spec?.volumes ?? []).filter((v) => !fromClaims.has(v.name))];
  }
  return { ...t, spec: podSpec } as RO<PodTemplateSpec>;
}

/** ValidatePodTemplateSpecForStatefulSet: selector match, the pod template, labels and annotations. */
function validateTemplate(t: RO<PodTemplateSpec>, spec: RO<StatefulSetSpec>, specPath: FieldPath, skipPodTemplate: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const selector = selectorOf(spec.selector);
  if (selector === undefined) return [invalid(specPath.child('selector'), goSyntax(goLabelSelector(spec.selector)), '')];
  const p = specPath.child('template');
  errs.push(...validateTemplateLabelsMatch(selector, t, p));
  // kube checks the labels and annotations twice (in ValidatePodTemplateSpec and here), and reports both
  if (!skipPodTemplate) errs.push(...validatePodTemplateSpec(templateToValidate(t, spec), p));
  errs.push(...validateLabels(t.metadata?.labels, p.child('labels')));
  errs.push(...validateAnnotations(t.metadata?.annotations, p.child('annotations')));
  return errs;
}

/** What an update tolerates: immutable fields already stored, and a template that no longer validates. */
interface StatefulSetSpecOptions {
  readonly update?: boolean;
  readonly skipPodTemplate?: boolean;
}

/** ValidateStatefulSetSpec; on update the immutable serviceName and claim templates are not checked again. */
function validateStatefulSetSpec(spec: RO<StatefulSetSpec>, p: FieldPath, opts: StatefulSetSpecOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = spec.podManagementPolicy ?? '';
  if (pmp === '') errs.push(required(p.child('podManagementPolicy')));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(invalid(p.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));

  const us = spec.updateStrategy;
  const usp = p.child('updateStrategy');
  switch (us?.type ?? '') {
    case '':
      errs.push(required(usp));
      break;
    case 'OnDelete':
      if (us?.rollingUpdate !== undefined) {
        const text = goStatefulSetRollingUpdate(us.rollingUpdate);
        errs.push(invalid(usp.child('rollingUpdate'), goSyntax(text), "only allowed for updateStrategy 'RollingUpdate'"));
      }
      break;
    case 'RollingUpdate':
      if (us?.rollingUpdate !== undefined) errs.push(...validateRollingUpdateStatefulSet(us.rollingUpdate, usp.child('rollingUpdate')));
      break;
    default:
      errs.push(invalid(usp, goStrategy(us, goStatefulSetRollingUpdate), "must be 'RollingUpdate' or 'OnDelete'"));
  }

  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (retention !== undefined) {
    const rp = p.child('persistentVolumeClaimRetentionPolicy');
    errs.push(...validateRetentionPolicyType(retention.whenDeleted, rp.child('whenDeleted')));
    errs.push(...validateRetentionPolicyType(retention.whenScaled, rp.child('whenScaled')));
  }
  if (opts.update !== true) {
    (spec.volumeClaimTemplates ?? []).forEach((pvc, i) =>
      errs.push(...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, p.child('volumeClaimTemplates').index(i).child('spec'))));
  }
  errs.push(...validateNonnegativeField(spec.replicas ?? 0, p.child('replicas')));
  errs.push(...validateNonnegativeField(spec.minReadySeconds ?? 0, p.child('minReadySeconds')));
  if (spec.ordinals !== undefined) errs.push(...validateNonnegativeField(spec.ordinals.start ?? 0, p.child('ordinals.start')));
  const serviceName = spec.serviceName ?? '';
  if (opts.update !== true && serviceName !== '') {
    errs.push(...isDNS1123Label(serviceName).map((m) => invalid(p.child('serviceName'), serviceName, m)));
  }

  if (spec.selector !== undefined && spec.selector !== null) {
    errs.push(...validateRequiredSelector(spec.selector, 'statefulset', p.child('selector')));
  } else {
    errs.push(required(p.child('selector')));
  }
  errs.push(...validateTemplate(spec.template ?? { spec: { containers: [] } }, spec, p, opts.skipPodTemplate === true));
  errs.push(...validateLongRunningTemplate(spec.template ?? { spec: { containers: [] } }, 'StatefulSet', p.child('template')));
  return errs;
}

export function validateStatefulSet(s: RO<StatefulSet>): FieldError[] {
  return [
    ...validateObjectMeta(s.metadata, { namespaced: true, nameFn: nameIsDNSLabel }, fieldPath('metadata')),
    ...validateStatefulSetSpec(s.spec, fieldPath('spec')),
  ];
}

const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

export function validateStatefulSetUpdate(s: RO<StatefulSet>, old: RO<StatefulSet>): FieldError[] {
  // an old template that no longer validates does not block updates (SkipValidatePodTemplateSpec)
  const skipPodTemplate = validateStatefulSetSpec(old.spec, fieldPath('spec'), { update: true }).length > 0;
  const errs = validateStatefulSetSpec(s.spec, fieldPath('spec'), { update: true, skipPodTemplate });
  const rest = (spec: RO<StatefulSetSpec>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(spec).filter(([k]) => !MUTABLE_SPEC_FIELDS.includes(k)));
  if (!deepEqual(rest(s.spec), rest(old.spec))) {
    errs.push(forbidden(fieldPath('spec'), "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
  }
  return errs;
}

function validateStatefulSetStatus(s: RO<StatefulSetStatus>, p: FieldPath): FieldError[] {
  const msg = 'cannot be greater than status.replicas';
  return [
    ...validateNonnegativeCounters(s, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'], p),
    ...validateNotGreaterThan(s, [
      ['readyReplicas', 'replicas', msg], ['currentReplicas', 'replicas', msg], ['updatedReplicas', 'replicas', msg],
      ['availableReplicas', 'replicas', msg], ['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas'],
    ], p),
  ];
}

export function validateStatefulSetStatusUpdate(s: RO<StatefulSet>, old: RO<StatefulSet>): FieldError[] {
  return [
    ...validateStatefulSetStatus(s.status ?? {}, fieldPath('status')),
    ...validateCollisionCountUpdate(s.status?.collisionCount, old.status?.collisionCount, fieldPath('status', 'collisionCount')),
  ];
}
