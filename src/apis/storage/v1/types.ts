// storage.k8s.io/v1 wire types (only the fields kapi reads; the rest pass through as JSON).
// Counterpart of k8s.io/api/storage/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';

export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export interface StorageClass extends KubeObject {
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: string;
  allowedTopologies?: TopologySelectorTerm[];
}

export interface VolumeError { time?: string; message?: string; errorCode?: number }

export interface VolumeAttachment extends KubeObject {
  spec?: {
    attacher?: string;
    nodeName?: string;
    source?: { persistentVolumeName?: string; inlineVolumeSpec?: Record<string, unknown> };
  };
  status?: {
    attached?: boolean;
    attachmentMetadata?: Record<string, string>;
    attachError?: VolumeError;
    detachError?: VolumeError;
  };
}

export interface CSIDriver extends KubeObject {
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    volumeLifecycleModes?: string[];
    storageCapacity?: boolean;
    fsGroupPolicy?: string;
    tokenRequests?: { audience: string; expirationSeconds?: number }[];
    requiresRepublish?: boolean;
    seLinuxMount?: boolean;
    nodeAllocatableUpdatePeriodSeconds?: number;
    serviceAccountTokenInSecrets?: boolean | null;
  };
}

export interface CSINodeDriver {
  name?: string;
  nodeID?: string;
  topologyKeys?: string[];
  allocatable?: { count?: number };
}

export interface CSINode extends KubeObject {
  spec?: { drivers?: CSINodeDriver[] };
}

export interface CSIStorageCapacity extends KubeObject {
  nodeTopology?: LabelSelector;
  storageClassName?: string;
  capacity?: string;
  maximumVolumeSize?: string;
}

export interface VolumeAttributesClass extends KubeObject {
  driverName?: string;
  parameters?: Record<string, string>;
}
