// The defaults of the volume sources a Pod volume and a PersistentVolume share (SetDefaults_*VolumeSource
// in core/v1): what kube fills in for the plugin when the client leaves it out.
// Counterpart of pkg/apis/core/v1/defaults.go.
type Source = Record<string, unknown>;

/** Per plugin, its defaults and whether "" counts as unset (a Go string field) or not (a pointer). */
const DEFAULTS: Readonly<Record<string, { readonly fields: Readonly<Record<string, unknown>>; readonly emptyIsUnset: boolean }>> = {
  hostPath: { fields: { type: '' }, emptyIsUnset: false },
  iscsi: { fields: { iscsiInterface: 'default' }, emptyIsUnset: true },
  rbd: { fields: { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' }, emptyIsUnset: true },
  azureDisk: { fields: { cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' }, emptyIsUnset: false },
  scaleIO: { fields: { storageMode: 'ThinProvisioned', fsType: 'xfs' }, emptyIsUnset: true },
};

/** Fills the unset fields of every volume source present in `holder` (a Volume or a PersistentVolumeSpec). */
export function defaultVolumeSources(holder: Source): void {
  for (const [plugin, { fields: defaults, emptyIsUnset }] of Object.entries(DEFAULTS)) {
    const src = holder[plugin];
    if (typeof src !== 'object' || src === null || Array.isArray(src)) continue;
    const fields = src as Source;
    for (const [field, value] of Object.entries(defaults)) {
      if (fields[field] === undefined || (emptyIsUnset && fields[field] === '')) fields[field] = value;
    }
  }
}
