// Validation of a CRD's spec.conversion: the strategy, and for Webhook the client config (url or
// service, CA bundle) and the ConversionReview versions. Field paths are those of kube's internal
// CRD (spec.conversion.webhookClientConfig, spec.conversion.conversionReviewVersions).
// Counterpart of validateCustomResourceConversion and validateConversionReviewVersions in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.
import { forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { isDNS1035Label } from '../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { caBundleError, validateCABundle, validateWebhookService, validateWebhookURL } from '../../webhook/validation.ts';
import { isEstablished, type CustomResourceDefinition, type CustomResourceDefinitionSpec } from '../v1/types.ts';

/** The ConversionReview versions kube speaks (acceptedConversionReviewVersions), sorted as it lists them. */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

export interface ConversionValidationOptions {
  /** A Webhook conversion must list a review version kube speaks (always on create). */
  readonly requireRecognizedVersion: boolean;
  /** The CA bundle is not checked (on create, and on updates of CRDs whose bundle was already bad). */
  readonly allowInvalidCABundle: boolean;
}

export const CREATE_CONVERSION_OPTIONS: ConversionValidationOptions = { requireRecognizedVersion: true, allowInvalidCABundle: true };

/** The options of an update, from the stored CRD. */
export function conversionUpdateOptions(old: DeepReadonly<CustomResourceDefinition>): ConversionValidationOptions {
  const versions = old.spec.conversion?.webhook?.conversionReviewVersions ?? [];
  const oldBundle = old.spec.conversion?.webhook?.clientConfig?.caBundle ?? '';
  return {
    requireRecognizedVersion: versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)),
    allowInvalidCABundle: !isEstablished(old) || (oldBundle !== '' && caBundleError(oldBundle) !== undefined),
  };
}

function validateReviewVersions(versions: readonly string[] | undefined, requireRecognized: boolean, p: FieldPath): FieldError[] {
  if (versions === undefined || versions.length === 0) return [required(p, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push(invalid(p.index(i), v, 'duplicate version')); return; }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(p.index(i), v, m));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(invalid(p, [...versions], `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** spec.conversion, as the v1 CRD converts to the internal one (webhook.clientConfig → webhookClientConfig). */
export function validateConversion(spec: DeepReadonly<CustomResourceDefinitionSpec>, path: FieldPath, opts: ConversionValidationOptions): FieldError[] {
  const conversion = spec.conversion;
  if (conversion === undefined || conversion === null) return [];
  const errs: FieldError[] = [];
  const cp = path.child('conversion');
  const strategy = conversion.strategy ?? '';
  if (strategy !== 'None' && spec.preserveUnknownFields === true) {
    errs.push(invalid(cp.child('strategy'), strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  if (strategy === '') errs.push(required(cp.child('strategy'), ''));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(notSupported(cp.child('strategy'), strategy, ['None', 'Webhook']));
  const webhook = conversion.webhook ?? undefined;
  const cc = webhook?.clientConfig ?? undefined;
  const ccp = cp.child('webhookClientConfig');
  if (strategy === 'Webhook') {
    if (cc === undefined) errs.push(required(ccp, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(ccp, 'exactly one of url or service is required'));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(ccp.child('url'), cc.url, true));
      else if (cc.service !== undefined) {
        const s = cc.service;
        // kube passes name and namespace swapped: a missing name is reported as service.namespace.
        errs.push(...validateWebhookService(ccp.child('service'), s.name ?? '', s.namespace ?? '', s.path, s.port ?? 443));
      }
      if ((cc.caBundle ?? '') !== '' && !opts.allowInvalidCABundle) errs.push(...validateCABundle(ccp.child('caBundle'), cc.caBundle));
    }
    errs.push(...validateReviewVersions(webhook?.conversionReviewVersions, opts.requireRecognizedVersion, cp.child('conversionReviewVersions')));
  } else {
    if (cc !== undefined) errs.push(forbidden(ccp, 'should not be set when strategy is not set to Webhook'));
    if ((webhook?.conversionReviewVersions ?? []).length > 0) {
      errs.push(forbidden(cp.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}
