// Shared validators (k8s.io/apimachinery/pkg/util/validation and pkg/api/validation).
export * from './validation.ts';
export * from './ip.ts';
export * from './object-meta.ts';
export type { DeepReadonly } from './readonly.ts';
