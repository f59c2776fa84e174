// Small formatting helpers shared by the core printers (labels, access modes, lists).
// Counterpart of helpers of pkg/printers/internalversion/printers.go.

/** labels.FormatLabels: "<none>" or sorted "k=v,k2=v2". */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

const accessModeShort: readonly [string, string][] = [
  ['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: "RWO,ROX" in kube's fixed order, without duplicates. */
export function accessModesAsString(modes: readonly string[] | undefined): string {
  const set = new Set(modes ?? []);
  return accessModeShort.filter(([m]) => set.has(m)).map(([, s]) => s).join(',');
}

/** The names and images of containers as the workload printers show them. */
export function layoutContainerCells(containers: readonly { readonly name: string; readonly image?: string }[]): { names: string; images: string } {
  return { names: containers.map((c) => c.name).join(','), images: containers.map((c) => c.image ?? '').join(',') };
}

/** The beta annotation wins over spec.storageClassName, as in the printers' class helpers. */
export function storageClassOf(annotations: Readonly<Record<string, string>> | undefined, storageClassName: string | undefined): string {
  const beta = annotations?.['volume.beta.kubernetes.io/storage-class'];
  return beta ?? storageClassName ?? '';
}
