// The claims a service account token carries (pkg/serviceaccount/claims.go's privateClaims), and
// a verified payload read back as them: the signature proves who wrote it, the shape check what it holds.

/** The private claim `kubernetes.io`. */
export interface KubernetesClaim {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  /** uid absent when a pod's node could not be found (kube omits empty fields). */
  node?: { name: string; uid?: string };
  /** An extended token: when its requested lifetime ended (seconds since the epoch). */
  warnafter?: number;
}

export interface ServiceAccountClaims {
  iss: string; sub: string; aud: string[]; exp: number; iat: number; nbf: number; jti: string;
  'kubernetes.io': KubernetesClaim;
}

type Obj = Readonly<Record<string, unknown>>;
type Ref = { name: string; uid?: string };

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number';

/** { name, uid } as strings; `uidOptional` for a pod's node that could not be found. */
function ref(v: unknown, uidOptional = false): Ref | undefined {
  if (!isObj(v) || !isStr(v['name'])) return undefined;
  const uid = v['uid'];
  if (isStr(uid)) return { name: v['name'], uid };
  return uidOptional && uid === undefined ? { name: v['name'] } : undefined;
}

const withUid = (r: Ref | undefined): { name: string; uid: string } | undefined =>
  r?.uid === undefined ? undefined : { name: r.name, uid: r.uid };

function kubernetesClaim(v: unknown): KubernetesClaim | undefined {
  if (!isObj(v) || !isStr(v['namespace'])) return undefined;
  const serviceaccount = withUid(ref(v['serviceaccount']));
  if (serviceaccount === undefined) return undefined;
  const out: KubernetesClaim = { namespace: v['namespace'], serviceaccount };
  for (const k of ['pod', 'secret'] as const) {
    if (v[k] === undefined) continue;
    const r = withUid(ref(v[k]));
    if (r === undefined) return undefined;
    out[k] = r;
  }
  if (v['node'] !== undefined) {
    const node = ref(v['node'], true);
    if (node === undefined) return undefined;
    out.node = node;
  }
  if (typeof v['warnafter'] === 'number') out.warnafter = v['warnafter'];
  return out;
}

/** The claims in `payload`; undefined when one is missing or of another type. */
export function serviceAccountClaims(payload: Obj): ServiceAccountClaims | undefined {
  const { iss, sub, aud, exp, iat, nbf, jti } = payload;
  if (!isStr(iss) || !isStr(sub) || !isStr(jti) || !isNum(exp) || !isNum(iat) || !isNum(nbf)) return undefined;
  if (!Array.isArray(aud) || !aud.every(isStr)) return undefined;
  const k8s = kubernetesClaim(payload['kubernetes.io']);
  return k8s === undefined ? undefined : { iss, sub, aud, exp, iat, nbf, jti, 'kubernetes.io': k8s };
}
