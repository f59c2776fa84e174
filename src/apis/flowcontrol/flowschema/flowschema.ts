// FlowSchemas (pkg/registry/flowcontrol/flowschema): cluster-scoped, status subresource,
// generation bumped on spec changes; matchingPrecedence defaults to 1000. Validation in ./validation.ts.
import type { FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateFlowControlStatus } from '../status.ts';
import type { FlowSchema } from '../v1/types.ts';
import { validateFlowSchemaSpec } from './validation.ts';

type RO<T> = DeepReadonly<T>;

/** SetDefaults_FlowSchemaSpec. */
function defaultFlowSchema(fs: FlowSchema): void {
  fs.spec ??= {};
  if ((fs.spec.matchingPrecedence ?? 0) === 0) fs.spec.matchingPrecedence = 1000;
}

function validateFlowSchema(fs: RO<FlowSchema>): FieldError[] {
  const errs = validateObjectMeta(fs.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  return [...errs, ...validateFlowSchemaSpec(fs.metadata.name ?? '', fs.spec ?? {})];
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
