// Test support for the pod validation tables: a case is a valid pod (or pod template) with one
// fault, defaulted as the server would, and its expected causes as kube-apiserver v1.36 reports them.
// No Go counterpart: test fixtures.
import { dropDisabledPodSpecFields, dropDisabledTemplateFields } from './disabled-fields.ts';
import { errorBody, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { defaultPodTemplate, validatePodTemplate } from '../podtemplate/podtemplate.ts';
import type { Pod, PodTemplate } from '../v1/types.ts';
import { defaultPod } from './defaults.ts';
import { validatePodCreate } from './validation.ts';

export interface PodRuleCase {
  readonly name: string;
  readonly spec?: Record<string, unknown>;
  readonly container?: Record<string, unknown>;
  readonly metadata?: Record<string, unknown>;
  /** Validate as a PodTemplate's template instead of a Pod. */
  readonly template?: true;
  /** The template's metadata (with `template`). */
  readonly templateMetadata?: Record<string, unknown>;
  /** `field|reason|message` of each cause, in any order (kube's order follows Go maps for some). */
  readonly want: readonly string[];
}

const cause = (e: FieldError): string => `${e.field}|${e.type}|${errorBody(e)}`;

/** The causes kapi gives for a case, sorted. */
export function podCaseCauses(c: PodRuleCase): string[] {
  const spec = structuredClone({ containers: [{ name: 'c', image: 'busybox', ...c.container }], ...c.spec }) as Pod['spec'];
  const metadata = { name: 'p', namespace: 'default', ...structuredClone(c.metadata) };
  if (c.template === true) {
    const pt = { apiVersion: 'v1', kind: 'PodTemplate', metadata, template: { metadata: structuredClone(c.templateMetadata), spec } } as PodTemplate;
    defaultPodTemplate(pt);
    // the strategy's PrepareForCreate drops the gated fields before validation
    dropDisabledTemplateFields(pt.template, undefined);
    return validatePodTemplate(pt).map(cause).sort();
  }
  // the ServiceAccount admission plugin names the default account before validation runs
  if (!('serviceAccountName' in spec)) spec.serviceAccountName = 'default';
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec } as Pod;
  defaultPod(pod);
  dropDisabledPodSpecFields(pod.spec, undefined);
  return validatePodCreate(pod).map(cause).sort();
}
