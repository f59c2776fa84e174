// Ages in `kubectl get` columns, shared by every group's table columns.
// Counterpart of k8s.io/apimachinery/pkg/util/duration (HumanDuration).
export { humanDuration, translateTimestampSince } from '../../../registry/rest/printers.ts';
