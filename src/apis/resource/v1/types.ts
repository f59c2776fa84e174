// resource.k8s.io/v1 wire types (Dynamic Resource Allocation), only the fields kapi reads; the
// rest of each object passes through as JSON.
// Counterpart of k8s.io/api/resource/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface DeviceSelector { cel?: { expression?: string } }

export interface ExactDeviceRequest {
  deviceClassName?: string;
  selectors?: DeviceSelector[];
  allocationMode?: string;
  count?: number;
  adminAccess?: boolean;
  tolerations?: { operator?: string }[];
  capacity?: unknown;
}

export interface DeviceSubRequest extends ExactDeviceRequest { name?: string }

export interface DeviceRequest {
  name?: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface ResourceClaimSpec {
  devices?: { requests?: DeviceRequest[]; constraints?: unknown[]; config?: unknown[] };
}

export interface DeviceClass extends KubeObject {
  spec?: { selectors?: DeviceSelector[]; config?: unknown[]; extendedResourceName?: string };
}

export interface ResourceClaim extends KubeObject {
  spec?: ResourceClaimSpec;
  status?: { allocation?: unknown; reservedFor?: unknown[]; devices?: unknown[] };
}

export interface ResourceClaimTemplate extends KubeObject {
  spec?: { metadata?: Record<string, unknown>; spec?: ResourceClaimSpec };
}

export interface ResourceSlice extends KubeObject {
  spec?: {
    driver?: string;
    pool?: { name?: string; generation?: number; resourceSliceCount?: number };
    nodeName?: string;
    nodeSelector?: unknown;
    allNodes?: boolean;
    perDeviceNodeSelection?: boolean;
    devices?: ({ name?: string } & Record<string, unknown>)[];
  };
}

export interface DeviceTaintRule extends KubeObject {
  spec?: { deviceSelector?: Record<string, unknown>; taint?: { key?: string; value?: string; effect?: string } };
  status?: Record<string, unknown>;
}

export interface ResourcePoolStatusRequest extends KubeObject {
  spec?: { driver?: string; poolName?: string; limit?: number };
  status?: Record<string, unknown>;
}
