// FlowSchemas (pkg/registry/flowcontrol/flowschema): cluster-scoped, status subresource,
// generation bumped on spec changes; matchingPrecedence defaults to 1000. Light validation.
import { fieldPath, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateFlowControlStatus } from '../status.ts';
import type { FlowSchema } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
export const FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE = 10000;

/** SetDefaults_FlowSchemaSpec. */
export function defaultFlowSchema(fs: FlowSchema): void {
  fs.spec ??= {};
  if ((fs.spec.matchingPrecedence ?? 0) === 0) fs.spec.matchingPrecedence = 1000;
}

export function validateFlowSchema(fs: RO<FlowSchema>): FieldError[] {
  const errs = validateObjectMeta(fs.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = fs.spec ?? {};
  const p = fieldPath('spec');
  const mp = spec.matchingPrecedence ?? 0;
  if (mp <= 0) errs.push(invalid(p.child('matchingPrecedence'), mp, 'must be a positive value'));
  if (mp > FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE) errs.push(invalid(p.child('matchingPrecedence'), mp, `must not be greater than ${FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE}`));
  const dm = spec.distinguisherMethod?.type;
  if (spec.distinguisherMethod !== undefined && (dm === undefined || !DISTINGUISHER_METHODS.includes(dm))) {
    errs.push(notSupported(p.child('distinguisherMethod', 'type'), dm ?? '', DISTINGUISHER_METHODS));
  }
  if ((spec.priorityLevelConfiguration?.name ?? '') === '') errs.push(required(p.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  (spec.rules ?? []).forEach((r, i) => {
    const rp = p.child('rules').index(i);
    if ((r.subjects ?? []).length === 0) errs.push(required(rp.child('subjects'), 'subjects must contain at least one value'));
    (r.subjects ?? []).forEach((s, j) => {
      if (!SUBJECT_KINDS.includes(s.kind ?? '')) errs.push(notSupported(rp.child('subjects').index(j).child('kind'), s.kind ?? '', SUBJECT_KINDS));
    });
    if ((r.resourceRules ?? []).length === 0 && (r.nonResourceRules ?? []).length === 0) {
      errs.push(required(rp, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
  });
  return errs;
}

/** printFlowSchema's MissingPL: the Dangling condition's status, "?" when absent. */
const missingPL = (fs: RO<FlowSchema>): string => fs.status?.conditions?.find((c) => c.type === 'Dangling')?.status ?? '?';

const strategy = specStatusStrategy<FlowSchema>({ validate: validateFlowSchema, hasStatus: true, generation: true });

export const flowSchemas = {
  group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema', resource: 'flowschemas', singular: 'flowschema', namespaced: false,
  strategy,
  statusStrategy: statusStrategy(strategy, { validate: validateFlowControlStatus, resetMetadata: {} }),
  defaults: defaultFlowSchema,
  table: [
    nameColumn<FlowSchema>(),
    column<FlowSchema>('PriorityLevel', 'string', (fs) => fs.spec?.priorityLevelConfiguration?.name ?? ''),
    column<FlowSchema>('MatchingPrecedence', 'string', (fs) => fs.spec?.matchingPrecedence ?? 0),
    column<FlowSchema>('DistinguisherMethod', 'string', (fs) => (fs.spec?.distinguisherMethod === undefined ? '<none>' : fs.spec.distinguisherMethod.type ?? '')),
    ageColumn<FlowSchema>(),
    column<FlowSchema>('MissingPL', 'string', missingPL),
  ],
} satisfies ResourceDefinition<FlowSchema>;
