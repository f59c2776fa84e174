// What a custom resource write is checked against, past ObjectMeta: its version's OpenAPI schema,
// the x-kubernetes-list-type invariants, and the x-kubernetes-validations rules, in kube's order
// and with its ratcheting on update (CRDValidationRatcheting, on in v1.36): schema errors of values
// left unchanged are dropped, list-type errors count only if the old object had none, and rule
// errors of unchanged values become warnings. Rules are skipped (with kube's note) when the schema
// already found the object malformed.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/registry/customresource/{validator.go,strategy.go,status_strategy.go}.
import { invalid, type FieldError, fieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { CorrelatedObject } from '../schema/correlation.ts';
import { validateListSetsAndMaps } from '../schema/list-types.ts';
import { validateCustomResource, validateValue } from '../schema/validate.ts';
import type { RuleValidator } from '../schema/cel/validation.ts';
import type { JSONSchemaProps } from '../v1/types.ts';

type Schema = DeepReadonly<JSONSchemaProps>;
type Obj = Readonly<Record<string, unknown>>;

/** kube's "<nil>" field: the note about skipped rules names no field. */
const NIL_FIELD = '<nil>';
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** hasBlockingErr: a malformed object (wrong type, missing, too long, too many, not supported) is not given to the rules. */
function rulesOrNote(errs: readonly FieldError[], run: () => FieldError[]): FieldError[] {
  if (errs.some((e) => BLOCKING.has(e.type))) {
    return [invalid(NIL_FIELD, null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  }
  return run();
}

export class CustomResourceValidator {
  constructor(private readonly schema: Schema, private readonly rules: RuleValidator | undefined) {}

  /**
   * A create: schema, list types, then rules (errors, never ratcheted). `prior` are the errors
   * found before (ObjectMeta's): they too keep the rules from running when they are blocking.
   */
  validate(ctx: RequestContext, obj: Obj, prior: readonly FieldError[] = []): FieldError[] {
    const errs = validateCustomResource(obj, this.schema);
    errs.push(...validateListSetsAndMaps(fieldPath(''), this.schema, obj));
    const rules = this.rules;
    if (rules !== undefined) errs.push(...rulesOrNote([...prior, ...errs], () => rules.validate(ctx, obj, undefined, undefined)));
    return errs;
  }

  /** An update of the main resource: the same checks, ratcheting what `old` already had; `prior` as for create. */
  validateUpdate(ctx: RequestContext, obj: Obj, old: Obj, prior: readonly FieldError[] = []): FieldError[] {
    const correlation = new CorrelatedObject(obj, old, this.schema);
    const errs = validateCustomResource(obj, this.schema, correlation);
    if (validateListSetsAndMaps(fieldPath(''), this.schema, old).length === 0) {
      errs.push(...validateListSetsAndMaps(fieldPath(''), this.schema, obj));
    }
    const rules = this.rules;
    if (rules !== undefined) errs.push(...rulesOrNote([...prior, ...errs], () => rules.validate(ctx, obj, old, correlation)));
    return errs;
  }

  /**
   * An update of the status subresource: .status against its own schema (messages name paths
   * relative to it, "count in body"), list types and rules of the whole object (whose spec is the
   * stored one, so its rules ratchet).
   */
  validateStatusUpdate(ctx: RequestContext, obj: Obj, old: Obj, prior: readonly FieldError[] = []): FieldError[] {
    const correlation = new CorrelatedObject(obj, old, this.schema);
    const errs: FieldError[] = [];
    const status = Object.hasOwn(obj, 'status') ? obj['status'] : undefined;
    const statusSchema = this.schema.properties?.['status'];
    if (status !== undefined && statusSchema !== undefined) {
      for (const e of validateValue(status, statusSchema, fieldPath('status'), correlation.key('status'))) {
        errs.push(e.detail.startsWith('status.') ? { ...e, detail: e.detail.slice('status.'.length) } : e);
      }
    }
    const now = validateListSetsAndMaps(fieldPath(''), this.schema, obj);
    if (now.length > 0 && validateListSetsAndMaps(fieldPath(''), this.schema, old).length === 0) errs.push(...now);
    const rules = this.rules;
    if (rules !== undefined) errs.push(...rulesOrNote([...prior, ...errs], () => rules.validate(ctx, obj, old, correlation)));
    return errs;
  }
}
