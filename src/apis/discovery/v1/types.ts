// Wire shapes (JSON) of discovery.k8s.io/v1, limited to the fields the server reads.
// Counterpart of k8s.io/api/discovery/v1.
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { ObjectReference } from '../../core/v1/types.ts';

export type AddressType = 'IPv4' | 'IPv6' | 'FQDN';

export interface Endpoint {
  addresses?: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: ObjectReference;
  deprecatedTopology?: Record<string, string>;
  nodeName?: string;
  zone?: string;
  hints?: { forZones?: { name: string }[]; forNodes?: { name: string }[] };
}

export interface EndpointPort { name?: string; protocol?: string; port?: number; appProtocol?: string }

export interface EndpointSlice {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  addressType?: string;
  endpoints?: Endpoint[];
  ports?: EndpointPort[];
}
