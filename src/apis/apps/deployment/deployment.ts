// Deployments (pkg/registry/apps/deployment): SetDefaults_Deployment, the apps/v1 strategy
// (generation bumped by spec or annotation changes, immutable selector) and printDeployment.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { defaultPodSpec } from '../../core/pod/defaults.ts';
import { podTemplateWarnings, workloadNameWarnings } from '../../core/pod/warnings.ts';
import { containerColumns, replicasScale, workloadOptions, workloadStatusOptions } from '../common.ts';
import type { Deployment } from '../v1/types.ts';
import { selectorOf } from '../validation/workload.ts';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate } from './validation.ts';

/** SetDefaults_Deployment plus the pod template defaults. */
export function defaultDeployment(d: Deployment): void {
  d.spec ??= { template: { spec: { containers: [] } } };
  const spec = d.spec;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  const strategy = spec.strategy;
  if ((strategy.type ?? '') === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    strategy.rollingUpdate ??= {};
    strategy.rollingUpdate.maxUnavailable ??= '25%';
    strategy.rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.template ??= { spec: { containers: [] } };
  spec.template.spec ??= { containers: [] };
  defaultPodSpec(spec.template.spec);
}

const deploymentStrategy = specStatusStrategy(workloadOptions<Deployment>({
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  annotationsBumpGeneration: true,
  warningsOnCreate: (d) => [...workloadNameWarnings(d.metadata.name), ...podTemplateWarnings(fieldPath('spec', 'template'), d.spec.template)],
  warningsOnUpdate: (d, old) => (d.metadata.generation !== old.metadata.generation ? podTemplateWarnings(fieldPath('spec', 'template'), d.spec.template) : []),
  // apps/v1 DeploymentStatus: every counter is omitempty (collisionCount and terminatingReplicas are pointers).
  goStatus: { always: {}, omitEmpty: ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'conditions'] },
}));

const deploymentStatusStrategy = statusStrategy(deploymentStrategy, workloadStatusOptions<Deployment>({
  validate: validateDeploymentStatusUpdate,
  keepsLabels: true,
}));


export const deployments = {
  group: 'apps', kind: 'Deployment', resource: 'deployments', singular: 'deployment', shortNames: ['deploy'], categories: ['all'],
  namespaced: true,
  strategy: deploymentStrategy,
  statusStrategy: deploymentStatusStrategy,
  defaults: defaultDeployment,
  scale: replicasScale<Deployment>(),
  table: [
    nameColumn<Deployment>(),
    { name: 'Ready', type: 'string', cell: (d) => `${d.status?.readyReplicas ?? 0}/${d.spec.replicas ?? 0}` },
    { name: 'Up-to-date', type: 'string', cell: (d) => d.status?.updatedReplicas ?? 0 },
    { name: 'Available', type: 'string', cell: (d) => d.status?.availableReplicas ?? 0 },
    ageColumn<Deployment>(),
    ...containerColumns<Deployment>(),
    // printDeployment prints the parsed selector ('' for none), '<invalid>' when it does not parse
    { name: 'Selector', type: 'string', priority: 1, cell: (d) => selectorOf(d.spec.selector as LabelSelector | null | undefined)?.toString() ?? '<invalid>' },
  ],
} satisfies ResourceDefinition<Deployment>;
