// Ages in `kubectl get` columns, shared by every group's table columns.
export { humanDuration, translateTimestampSince } from '../../../registry/rest/printers.ts';
