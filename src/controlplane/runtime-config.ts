// --runtime-config: which group versions are served. Defaults as kube-apiserver v1.36: GA
// versions on; beta and alpha off (every beta served by v1.36 was introduced after v1.24, and
// betas since then are off by default).
// Counterpart of k8s.io/apiserver/pkg/server/resourceconfig and pkg/controlplane/apiserver/options
// (DefaultAPIResourceConfigSource).
export type Stability = 'ga' | 'beta' | 'alpha';

export function stabilityOf(version: string): Stability {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}

export type VersionEnabled = (group: string, version: string) => boolean;

function parseBool(key: string, value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/**
 * Resolves `--runtime-config` (`api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>`,
 * `v1` or `api/v1` for core) against the known group versions; a specific group version wins over
 * the `api/*` switches. Throws for a key naming no known group version.
 */
export function resolveRuntimeConfig(config: Readonly<Record<string, string>>,
  known: readonly { readonly group: string; readonly version: string }[]): VersionEnabled {
  const level: Record<Stability, boolean> = { ga: true, beta: false, alpha: false };
  const all = config['api/all'];
  if (all !== undefined) {
    const on = parseBool('api/all', all);
    level.ga = on; level.beta = on; level.alpha = on;
  }
  for (const s of ['ga', 'beta', 'alpha'] as const) {
    const v = config[`api/${s}`];
    if (v !== undefined) level[s] = parseBool(`api/${s}`, v);
  }
  const specific = new Map<string, boolean>();
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (/^api\/(all|ga|beta|alpha)$/.test(key)) continue;
    const gv = key === 'v1' || key === 'api/v1' ? '/v1' : key.replace(/\/$/, '');
    const [group = '', version = ''] = gv.split('/');
    if (!known.some((k) => k.group === group && k.version === version)) { unknown.push(key); continue; }
    specific.set(`${group}/${version}`, parseBool(key, value));
  }
  if (unknown.length > 0) throw new Error(`unknown api groups ${unknown.sort().join(',')}`);
  return (group, version) => specific.get(`${group}/${version}`) ?? level[stabilityOf(version)];
}
