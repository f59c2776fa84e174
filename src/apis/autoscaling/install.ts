// The autoscaling API group: HorizontalPodAutoscalers in autoscaling/v2 (preferred, storage and
// hub) and autoscaling/v1 (converted losslessly through annotations).
// Counterpart of pkg/registry/autoscaling/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { defaultHorizontalPodAutoscalerV1, horizontalPodAutoscalers } from './horizontalpodautoscaler/horizontalpodautoscaler.ts';
import { hpaFromV1, hpaToV1 } from './v1/conversion.ts';
import type { HorizontalPodAutoscalerV1 } from './v1/types.ts';

const hpaV2 = horizontalPodAutoscalers;
/** The v1 entry: strategy and table work on hub objects; only its defaults see the v1 shape. */
const hpaV1: ResourceDefinition<KubeObject> = {
  ...hpaV2,
  defaults: (obj) => defaultHorizontalPodAutoscalerV1(obj as HorizontalPodAutoscalerV1),
};

export const autoscalingGroup: APIGroupDefinition = {
  group: 'autoscaling',
  versions: [
    { version: 'v2', resources: [hpaV2] },
    { version: 'v1', resources: [hpaV1] },
  ],
  conversions: [{ version: 'v1', kind: 'HorizontalPodAutoscaler', toHub: hpaFromV1, fromHub: hpaToV1 }],
};
