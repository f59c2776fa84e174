// The aggregator's discovery: the manager that fetches what backends serve and the merged
// documents the server answers /apis and /apis/<group> with.
// Counterpart of k8s.io/kube-aggregator/pkg/apiserver (handler_discovery.go, handler_apis.go).
export { DiscoveryManager, type DiscoveryFetcher, type DiscoveryManagerOptions } from './manager.ts';
export { AggregatorDiscovery, type FallbackPriority } from './merge.ts';
export type { Priority } from './order.ts';
