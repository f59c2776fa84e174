// Node validation (pkg/apis/core/validation: ValidateNode, ValidateNodeUpdate and their helpers).
// kube reports the taints of spec under `metadata.taints` and the swap status under
// `metadata.nodeSwapStatus` (its field paths start from the metadata path); kapi says the same.
import { duplicate, fieldPath, forbidden, GoSyntax, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { goJSONKind, goJSONParse } from '../../../apimachinery/validation/go-json.ts';
import { isValidCIDRForLegacyField, parseCIDRSloppy } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName, isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Node, Taint } from '../v1/types.ts';
import { validateNodeAddresses, validateNodeResources } from './resources.ts';

type RO<T> = DeepReadonly<T>;
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TAINTS_ANNOTATION = 'scheduler.alpha.kubernetes.io/taints';
const AVOID_PODS_ANNOTATION = 'scheduler.alpha.kubernetes.io/preferAvoidPods';
const DECLARED_FEATURE = /^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$/;

/** validateNodeTaints: label-name keys, label values, a known effect, each key and effect once. */
function validateTaints(taints: RO<Taint[]>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const ip = p.index(i);
    const key = t.key ?? '';
    errs.push(...isQualifiedName(key).map((m) => invalid(ip.child('key'), key, m)));
    const value = t.value ?? '';
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(invalid(ip.child('value'), value, valueErrs.join(';')));
    const effect = t.effect ?? '';
    if (effect === '') errs.push(required(ip.child('effect')));
    else if (!TAINT_EFFECTS.includes(effect)) errs.push(notSupported(ip.child('effect'), effect, TAINT_EFFECTS));
    const k = JSON.stringify([key, effect]);
    if (seen.has(k)) {
      const shown = new GoSyntax(JSON.stringify({ Key: key, Value: value, Effect: effect, TimeAdded: t.timeAdded ?? null }));
      errs.push({ ...duplicate(ip, shown), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(k);
  });
  return errs;
}

/** ValidateNodeSpecificAnnotations: the alpha taints and preferAvoidPods annotations must parse. */
function validateNodeAnnotations(annotations: RO<Record<string, string>> | undefined): FieldError[] {
  const p = fieldPath('metadata', 'annotations');
  const errs: FieldError[] = [];
  const taints = annotations?.[TAINTS_ANNOTATION] ?? '';
  if (taints !== '') {
    const r = goJSONParse(taints);
    if ('error' in r) errs.push(invalid(p, TAINTS_ANNOTATION, r.error));
    else if (r.value !== null && !Array.isArray(r.value)) errs.push(invalid(p, TAINTS_ANNOTATION, `json: cannot unmarshal ${goJSONKind(r.value)} into Go value of type []core.Taint`));
    else errs.push(...validateTaints((r.value ?? []) as Taint[], p.child(TAINTS_ANNOTATION)));
  }
  const avoid = annotations?.[AVOID_PODS_ANNOTATION] ?? '';
  if (avoid !== '') {
    const r = goJSONParse(avoid);
    const ap = p.child('AvoidPods');
    if ('error' in r) errs.push(invalid(ap, AVOID_PODS_ANNOTATION, r.error));
    else if (typeof r.value !== 'object' || Array.isArray(r.value)) {
      errs.push(invalid(ap, AVOID_PODS_ANNOTATION, `json: cannot unmarshal ${goJSONKind(r.value)} into Go value of type v1.AvoidPods`));
    } else {
      const entries = ((r.value as { preferAvoidPods?: unknown } | null)?.preferAvoidPods ?? []) as { podSignature?: { podController?: { controller?: boolean } } }[];
      entries.forEach((e, i) => {
        const ep = p.child(AVOID_PODS_ANNOTATION).index(i).child('PodSignature');
        const controller = e.podSignature?.podController;
        if (controller === undefined) errs.push(required(ep));
        else if (controller.controller !== true) errs.push(invalid(ep.child('PodController', 'Controller'), controller.controller ?? false, 'must point to a controller'));
      });
    }
  }
  return errs;
}

/** validateNodeDeclaredFeatures: well-formed names, sorted, each once. */
function validateDeclaredFeatures(features: readonly string[]): FieldError[] {
  const p = fieldPath('status', 'declaredFeatures');
  const errs: FieldError[] = [];
  features.forEach((f, i) => {
    if (f.length > 253) errs.push(invalid(p.index(i), f, `invalid feature name ${JSON.stringify(f)}: must be no more than 253 characters`));
    else if (!DECLARED_FEATURE.test(f)) {
      errs.push(invalid(p.index(i), f, `invalid feature name ${JSON.stringify(f)}: must start with an UpperCamelCase segment, with subsequent segments ` +
        "separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes"));
    }
    const next = features[i + 1];
    if (next === undefined) return;
    if (next === f) errs.push(duplicate(p.index(i + 1), next));
    else if (f > next) errs.push(invalid(p.index(i + 1), next, 'list must be sorted alphabetically'));
  });
  return errs;
}

function validatePodCIDRs(cidrs: readonly string[]): FieldError[] {
  const p = fieldPath('spec', 'podCIDRs');
  const errs = cidrs.flatMap((c, i) => isValidCIDRForLegacyField(p.index(i), c, true));
  if (cidrs.length > 1) {
    const families = cidrs.map((c) => parseCIDRSloppy(c)?.ip.v4);
    const dualStack = cidrs.length === 2 && families[0] !== undefined && families[1] !== undefined && families[0] !== families[1];
    if (!dualStack) errs.push(invalid(p, cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

export function validateNode(node: RO<Node>): FieldError[] {
  return [...validateObjectMeta(node.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateNodeFields(node)];
}

/** ValidateNode but for the generic object meta checks. */
export function validateNodeFields(node: RO<Node>): FieldError[] {
  const errs = validateNodeAnnotations(node.metadata.annotations);
  errs.push(...validateTaints(node.spec?.taints ?? [], fieldPath('metadata', 'taints')));
  errs.push(...validateNodeResources(node));
  const swap = node.status?.nodeInfo?.swap?.capacity;
  if (typeof swap === 'number' && swap <= 0) errs.push(invalid(fieldPath('metadata', 'nodeSwapStatus', 'capacity'), swap, 'must be greater than zero'));
  errs.push(...validateDeclaredFeatures(node.status?.declaredFeatures ?? []));
  errs.push(...validatePodCIDRs(node.spec?.podCIDRs ?? []));
  return errs;
}

/** ValidateNodeUpdate (the object meta update is checked by the generic update path). */
export function validateNodeUpdate(node: RO<Node>, old: RO<Node>): FieldError[] {
  const errs = [...validateNodeAnnotations(node.metadata.annotations), ...validateNodeResources(node)];
  errs.push(...validateDeclaredFeatures(node.status?.declaredFeatures ?? []), ...validateNodeAddresses(node));
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const cidrs = node.spec?.podCIDRs ?? [];
  const cidrsForbidden = forbidden(fieldPath('spec', 'podCIDRs'), 'node updates may not change podCIDR except from "" to valid');
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== cidrs.length) errs.push(cidrsForbidden);
    else oldCIDRs.forEach((c, i) => { if (c !== cidrs[i]) errs.push(cidrsForbidden); });
  }
  const oldProvider = old.spec?.providerID ?? '';
  if (oldProvider !== '' && (node.spec?.providerID ?? '') !== oldProvider) {
    errs.push(forbidden(fieldPath('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  errs.push(...validateTaints(node.spec?.taints ?? [], fieldPath('metadata', 'taints')));
  if ((node.spec?.externalID ?? '') !== (old.spec?.externalID ?? '')) errs.push(forbidden(fieldPath('spec', 'externalID'), 'may not be updated'));
  return errs;
}

/**
 * Convert_v1_NodeSpec_To_core_NodeSpec: podCIDR is authoritative when it disagrees with
 * podCIDRs[0] (older clients), fills podCIDRs when that is empty, and is podCIDRs[0] on the way out.
 */
export function normalizePodCIDRs(node: Node): void {
  const spec = node.spec;
  if (spec === undefined) return;
  const single = spec.podCIDR ?? '';
  if (single !== '' && (spec.podCIDRs ?? []).length > 0 && spec.podCIDRs?.[0] !== single) spec.podCIDRs = [single];
  if (single !== '' && (spec.podCIDRs ?? []).length === 0) spec.podCIDRs = [single];
  const first = spec.podCIDRs?.[0];
  if (first !== undefined) spec.podCIDR = first;
  else delete spec.podCIDR;
}
