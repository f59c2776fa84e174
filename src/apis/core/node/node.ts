// Nodes (pkg/registry/core/node): cluster-scoped; status may be set on create (kubelets
// register with it) but only changes through /status afterwards.
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { Node } from '../v1/types.ts';
import { repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import { normalizePodCIDRs, validateNode, validateNodeFields, validateNodeUpdate } from './validation.ts';
import { roundUpResourceList } from '../v1/resource-names.ts';

type RO<T> = DeepReadonly<T>;

/**
 * Nodes allow every field, status included, on create; configSource and status.config are dropped
 * unless the old object already had them (dropDisabledFields; both are deprecated and unused).
 */
function dropConfigSource(node: Node, old: RO<Node> | undefined): void {
  if (node.spec !== undefined && old?.spec?.configSource === undefined) delete node.spec.configSource;
}

/** SetDefaults_NodeStatus: allocatable defaults to capacity. */
function defaultNode(node: Node): void {
  normalizePodCIDRs(node);
  roundUpResourceList(node.status?.capacity);
  roundUpResourceList(node.status?.allocatable);
  if (node.status?.capacity !== undefined && node.status.allocatable === undefined) node.status.allocatable = { ...node.status.capacity };
}

function nodeStatus(node: RO<Node>): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = ready === undefined ? ['Unknown'] : [ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (node.spec?.unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: RO<Node>): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

const address = (node: RO<Node>, type: string): string => (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
const orUnknown = (s: string | undefined): string => (s === undefined || s === '' ? '<unknown>' : s);

/** The nodeInfo strings (NodeSystemInfo): none is omitempty. */
const NODE_INFO_FIELDS = ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion',
  'kubeProxyVersion', 'operatingSystem', 'architecture'] as const;

/**
 * Node as Go writes it: spec and status are structs, and so are status.daemonEndpoints (with
 * kubeletEndpoint.Port, no omitempty) and status.nodeInfo (ten strings, no omitempty).
 */
function goNode(node: Node): void {
  node.spec ??= {};
  node.status ??= {};
  const st = node.status;
  st.daemonEndpoints ??= {};
  st.daemonEndpoints.kubeletEndpoint ??= { Port: 0 };
  st.nodeInfo ??= {};
  for (const f of NODE_INFO_FIELDS) st.nodeInfo[f] ??= '';
}

const nodeStrategy = specStatusStrategy<Node>({
  prepareForCreate(_ctx, node) {
    dropConfigSource(node, undefined);
    if (node.status !== undefined) delete node.status.config;
  },
  validate: (node) => validateNode(node),
  prepareForUpdate(_ctx, node, old) {
    setOptional(node, 'status', old.status === undefined ? undefined : copyOf<Node['status']>(old.status));
    dropConfigSource(node, old);
  },
  // ValidateNode and ValidateNodeUpdate both run: metadata checks and taints are reported twice
  revalidateOnUpdate: false,
  validateUpdate: (node, old) => [...validateNodeFields(node), ...validateNodeUpdate(node, old),
    ...repeatedMetadataErrors(node.metadata, old.metadata, { update: true, create: { namespaced: false } })],
  canonicalize: goNode,
});

const nodeStatusStrategy = statusStrategy<Node>(nodeStrategy, {
  prepareForUpdate(_ctx, node, old) {
    if (old.status?.config === undefined && node.status !== undefined) delete node.status.config;
  },
  validate: (node, old) => [...validateNodeUpdate(node, old), ...repeatedMetadataErrors(node.metadata, old.metadata, { update: true })],
});

export const nodes = {
  group: '', kind: 'Node', resource: 'nodes', singular: 'node', shortNames: ['no'], namespaced: false,
  strategy: nodeStrategy,
  statusStrategy: nodeStatusStrategy,
  defaults: defaultNode,
  selectableFields: (node) => ({ 'metadata.name': node.metadata.name ?? '', 'spec.unschedulable': String(node.spec?.unschedulable === true) }),
  table: [
    nameColumn<Node>(),
    { name: 'Status', type: 'string', cell: (n) => nodeStatus(n) },
    { name: 'Roles', type: 'string', cell: (n) => nodeRoles(n) },
    ageColumn<Node>(),
    { name: 'Version', type: 'string', cell: (n) => n.status?.nodeInfo?.kubeletVersion ?? '' },
    { name: 'Internal-IP', type: 'string', priority: 1, cell: (n) => address(n, 'InternalIP') },
    { name: 'External-IP', type: 'string', priority: 1, cell: (n) => address(n, 'ExternalIP') },
    { name: 'OS-Image', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.osImage) },
    { name: 'Kernel-Version', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.kernelVersion) },
    { name: 'Container-Runtime', type: 'string', priority: 1, cell: (n) => orUnknown(n.status?.nodeInfo?.containerRuntimeVersion) },
  ],
} satisfies ResourceDefinition<Node>;
