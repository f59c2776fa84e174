// Deprecation warnings of served kinds (kube's endpoints/deprecation with the lifecycle that
// prerelease-lifecycle-gen or a hand-written APILifecycle* method gives each versioned type):
// every request to a deprecated kind's resource (not its subresources) carries a Warning,
// whatever the verb and whatever the answer, added before the handler runs.

interface Lifecycle {
  /** major.minor of the release that deprecated it. */
  readonly deprecated: string;
  /** major.minor from which it is no longer served, when kube names one. */
  readonly removed?: string;
  /** The replacement's apiVersion and kind. */
  readonly replacement?: string;
}

/** Keyed `<apiVersion> <Kind>`: the deprecated kinds served by default in v1.36. */
const DEPRECATED: Readonly<Record<string, Lifecycle>> = {
  'v1 ComponentStatus': { deprecated: '1.19' },
  'v1 Endpoints': { deprecated: '1.33', replacement: 'discovery.k8s.io/v1 EndpointSlice' },
};

/** kube's deprecation.WarningMessage for the kind, or undefined when it is not deprecated. */
export function deprecationWarning(group: string, version: string, kind: string): string | undefined {
  const id = `${group === '' ? version : `${group}/${version}`} ${kind}`;
  const l = DEPRECATED[id];
  if (l === undefined) return undefined;
  return `${id} is deprecated in v${l.deprecated}+${l.removed !== undefined ? `, unavailable in v${l.removed}+` : ''}` +
    `${l.replacement !== undefined ? `; use ${l.replacement}` : ''}`;
}
