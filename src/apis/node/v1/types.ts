// node.k8s.io/v1 wire types.
// Counterpart of k8s.io/api/node/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface RuntimeClass extends KubeObject {
  handler?: string;
  overhead?: { podFixed?: Record<string, string | number> };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Record<string, unknown>[] };
}
