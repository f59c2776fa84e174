// Small JSON manifests for `kubectl create -f -` (kubectl sends them as JSON, unlike the imperative
// `kubectl create namespace|configmap`, which send protobuf).
// No Go counterpart: the e2e test harness.
export function namespaceManifest(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export function configMapManifest(name: string, data: Record<string, string> = {}, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data, ...extra });
}
