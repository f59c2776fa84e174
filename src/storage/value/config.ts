// --encryption-provider-config: kube's apiserver.config.k8s.io/v1 EncryptionConfiguration, validated
// with kube's messages and turned into one transformer per group resource (exact rule, then
// `*.<group>`, then `*.*`; nothing: no transformer, values stored as the codec wrote them).
// Counterpart of k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go and
// k8s.io/apiserver/pkg/apis/apiserver/validation/validation_encryption.go.
import { cbcTransformer, gcmTransformer } from './aes.ts';
import { KmsV2Client, KmsV2Envelope } from './kmsv2.ts';
import { secretboxTransformer } from './secretbox.ts';
import { identityTransformer, prefixTransformers, type PrefixTransformer, type Transformer } from './transformer.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface GroupResource { readonly group: string; readonly resource: string }

/** kube's schema.ParseGroupResource: "deployments.apps" → apps/deployments, "secrets" → core. */
export function parseGroupResource(s: string): GroupResource {
  const i = s.indexOf('.');
  return i < 0 ? { group: '', resource: s } : { group: s.slice(i + 1), resource: s.slice(0, i) };
}

const AES_SIZES = [16, 24, 32];
const KEY_LEN_FMT = (n: number, sizes: readonly number[]): string =>
  `secret is not of the expected length, got ${n}, expected one of [${sizes.join(' ')}]`;

const goList = (v: readonly string[]): string => JSON.stringify(v);

/** A ProviderConfiguration as kube prints the internal Go struct (JSON without tags, every field). */
function goProvider(o: Obj): string {
  const keys = (v: unknown): unknown => {
    const body = isObj(v) ? v : {};
    return { Keys: Array.isArray(body.keys) ? body.keys.map((k) => ({ Name: str(isObj(k) ? k.name : ''), Secret: str(isObj(k) ? k.secret : '') })) : null };
  };
  const kms = (v: unknown): unknown => {
    const c = isObj(v) ? v : {};
    const apiVersion = str(c.apiVersion) === '' ? 'v1' : str(c.apiVersion);
    const cacheSize = typeof c.cachesize === 'number' ? c.cachesize : apiVersion === 'v1' ? 1000 : null;
    return { APIVersion: apiVersion, Name: str(c.name), CacheSize: cacheSize, Endpoint: str(c.endpoint), Timeout: { Duration: parseTimeoutMs(c.timeout) * 1e6 } };
  };
  const present = (k: string): boolean => o[k] !== undefined && o[k] !== null;
  return JSON.stringify({
    AESGCM: present('aesgcm') ? keys(o.aesgcm) : null, AESCBC: present('aescbc') ? keys(o.aescbc) : null,
    Secretbox: present('secretbox') ? keys(o.secretbox) : null, Identity: present('identity') ? {} : null, KMS: present('kms') ? kms(o.kms) : null,
  });
}

function validateKeys(keys: unknown, path: string, sizes: readonly number[], errs: string[]): void {
  const list = arr(keys);
  if (list.length === 0) { errs.push(`${path}: Required value: at least one keys is required`); return; }
  list.forEach((k, i) => {
    const o = isObj(k) ? k : {};
    const p = `${path}[${i}]`;
    if (str(o.name) === '') errs.push(`${p}.name: Required value: name is a mandatory field for a key`);
    const secret = str(o.secret);
    if (secret === '') { errs.push(`${p}.secret: Required value: secret is a mandatory field for a key`); return; }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(secret) || secret.length % 4 !== 0) {
      errs.push(`${p}.secret: Invalid value: "REDACTED": secrets must be base64 encoded`); return;
    }
    const n = Buffer.from(secret, 'base64').length;
    if (!sizes.includes(n)) errs.push(`${p}.secret: Invalid value: "REDACTED": ${KEY_LEN_FMT(n, sizes)}`);
  });
}

const PROVIDERS = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'] as const;

/** kube's ValidateEncryptionConfiguration; each error as kube's field.Error prints it. */
export function validateEncryptionConfiguration(cfg: Obj): string[] {
  const errs: string[] = [];
  const resources = arr(cfg.resources);
  if (resources.length === 0) return ['resources: Required value: at least one resources is required'];
  const kmsNames = new Set<string>();
  resources.forEach((rc, i) => {
    const conf = isObj(rc) ? rc : {};
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    const names = arr(conf.resources).map(str);
    if (names.length === 0) errs.push(`${r}: Required value: at least one ${r} is required`);
    const parsed = names.map(parseGroupResource);
    let dup = false; let overlap = false;
    parsed.forEach((a, x) => parsed.forEach((b, y) => {
      if (x === y) return;
      if (a.group === b.group && a.resource === b.resource) { dup = true; return; }
      if (a.group === '*' && a.resource === '*') { overlap = true; return; }
      if (a.group === b.group && (a.resource === '*' || b.resource === '*')) overlap = true;
    }));
    if (dup) errs.push(`${r}: Invalid value: ${goList(names)}: the same resource cannot be specified multiple times`);
    if (overlap) errs.push(`${r}: Invalid value: ${goList(names)}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`);
    names.forEach((res, j) => {
      const jj = `${r}[${j}]`;
      const gr = parseGroupResource(res);
      const bad = res.toLowerCase() !== res ? 'resource name should not contain capital letters'
        : res === '*' ? "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"
          : ['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res) ? 'resources which do not have REST API/s cannot be encrypted'
            : gr.group === 'events.k8s.io' ? "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"
              : gr.group === 'extensions' ? "'extensions' group has been removed and cannot be used for encryption"
                : gr.group === '*' && gr.resource !== '*' ? 'encrypting the same resource across groups is not supported' : '';
      if (bad !== '') errs.push(`${jj}: Invalid value: ${JSON.stringify(res)}: ${bad}`);
    });
    const providers = arr(conf.providers);
    if (providers.length === 0) errs.push(`${p}: Required value: at least one ${p} is required`);
    providers.forEach((pv, j) => {
      const o = isObj(pv) ? pv : {};
      const path = `${p}[${j}]`;
      const found = PROVIDERS.filter((k) => o[k] !== undefined && o[k] !== null);
      if (found.length === 0) { errs.push(`${path}: Invalid value: ${goProvider(o)}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`); return; }
      if (found.length > 1) { errs.push(`${path}: Invalid value: ${goProvider(o)}: more than one provider specified in a single element, should split into different list elements`); return; }
      const kind = found[0];
      const body = isObj(o[kind ?? '']) ? o[kind ?? ''] as Obj : {};
      if (kind === 'aesgcm' || kind === 'aescbc') validateKeys(body.keys, `${path}.${kind}.keys`, AES_SIZES, errs);
      if (kind === 'secretbox') validateKeys(body.keys, `${path}.secretbox.keys`, [32], errs);
      if (kind === 'kms') validateKms(body, `${path}.kms`, kmsNames, errs);
    });
  });
  return errs;
}

function validateKms(c: Obj, path: string, names: Set<string>, errs: string[]): void {
  const name = str(c.name);
  const apiVersion = str(c.apiVersion) === '' ? 'v1' : str(c.apiVersion);
  if (name === '') errs.push(`${path}.name: Required value: name is a mandatory field for a provider`);
  if (apiVersion !== 'v1' && name.includes(':')) errs.push(`${path}.name: Invalid value: ${JSON.stringify(name)}: invalid KMS provider name ${name}, must not contain ':'`);
  if (apiVersion !== 'v1' && names.has(name)) errs.push(`${path}.name: Invalid value: ${JSON.stringify(name)}: duplicate KMS provider name ${name}, names must be unique`);
  names.add(name);
  const endpoint = str(c.endpoint);
  if (endpoint === '') errs.push(`${path}.endpoint: Invalid value: "": endpoint is a mandatory field for a kms`);
  else if (!endpoint.startsWith('unix:')) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(endpoint)?.[1] ?? '';
    errs.push(`${path}.endpoint: Invalid value: ${JSON.stringify(endpoint)}: unsupported scheme ${JSON.stringify(scheme)} for KMS provider, only unix is supported`);
  }
  if (apiVersion !== 'v1' && c.cachesize !== undefined) errs.push(`${path}.cachesize: Invalid value: ${String(c.cachesize)}: cachesize is not supported in v2`);
  if (apiVersion !== 'v1' && apiVersion !== 'v2') errs.push(`${path}.apiVersion: Invalid value: ${JSON.stringify(apiVersion)}: unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported`);
}

export interface KmsProvider { readonly name: string; readonly envelope: KmsV2Envelope }

export interface EncryptionTransformers {
  /** The transformer of a group resource, undefined when no rule covers it. */
  forResource(gr: GroupResource): Transformer | undefined;
  readonly kmsProviders: readonly KmsProvider[];
  /** Automatic reload is on: KMS health is one check, kms-providers. */
  readonly reloading?: boolean;
  close(): void;
}

const keyed = (noKey: string, keys: unknown, make: (secret: Buffer) => Transformer): Transformer =>
  prefixTransformers(noKey, arr(keys).map((k): PrefixTransformer => {
    const o = isObj(k) ? k : {};
    return { prefix: Buffer.from(`${str(o.name)}:`), transformer: make(Buffer.from(str(o.secret), 'base64')) };
  }));

/** How often each KMS v2 plugin's key ID is checked (kube: every minute). */
const KMS_STATUS_INTERVAL_MS = 60_000;

const parseTimeoutMs = (v: unknown): number => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(str(v));
  if (m === null) return 3000;
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000);
};

/** kube-apiserver's refusal of a kms provider of apiVersion v1 while the KMSv1 feature gate is off. */
const KMS_V1_OFF = 'KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.';

/** Builds the transformers of a valid configuration (kube's getTransformerOverridesAndKMSPluginHealthzCheckers). */
export function buildTransformers(cfg: Obj): EncryptionTransformers {
  const byResource = new Map<string, Transformer>();
  // kube refuses a rule that an earlier `*.<group>` or `*.*` rule already covers.
  const seen = new Set<string>();
  for (const rc of arr(cfg.resources)) {
    const names = arr(isObj(rc) ? rc.resources : []).map(str).map(parseGroupResource);
    for (const gr of names) {
      const show = (g: GroupResource): string => (g.group === '' && g.resource === '*' ? '*.' : g.group === '' ? g.resource : `${g.resource}.${g.group}`);
      if (gr.resource !== '*' && seen.has(`${gr.group}/*`)) throw new Error(`error while building transformers: resource ${JSON.stringify(show(gr))} is masked by earlier rule ${JSON.stringify(show({ group: gr.group, resource: '*' }))}`);
      if (!(gr.group === '*' && gr.resource === '*') && seen.has('*/*')) throw new Error(`error while building transformers: resource ${JSON.stringify(show(gr))} is masked by earlier rule "*.*"`);
    }
    for (const gr of names) seen.add(`${gr.group}/${gr.resource}`);
  }
  const kms: KmsProvider[] = [];
  for (const rc of arr(cfg.resources)) {
    const conf = isObj(rc) ? rc : {};
    const list: PrefixTransformer[] = arr(conf.providers).map((pv): PrefixTransformer => {
      const o = isObj(pv) ? pv : {};
      const body = (k: string): Obj => (isObj(o[k]) ? o[k] as Obj : {});
      if (o.aesgcm !== undefined) return { prefix: Buffer.from('k8s:enc:aesgcm:v1:'), transformer: keyed('no matching key was found for the provided AES transformer', body('aesgcm').keys, gcmTransformer) };
      if (o.aescbc !== undefined) return { prefix: Buffer.from('k8s:enc:aescbc:v1:'), transformer: keyed('no matching key was found for the provided AES transformer', body('aescbc').keys, cbcTransformer) };
      if (o.secretbox !== undefined) return { prefix: Buffer.from('k8s:enc:secretbox:v1:'), transformer: keyed('no matching key was found for the provided Secretbox transformer', body('secretbox').keys, secretboxTransformer) };
      if (o.kms !== undefined) {
        const c = body('kms');
        // KMSv1 is deprecated, its gate off by default since v1.29 (kapi has no --feature-gates to turn it on).
        if ((str(c.apiVersion) === '' ? 'v1' : str(c.apiVersion)) === 'v1') throw new Error(`error while building transformers: ${KMS_V1_OFF}`);
        const name = str(c.name);
        let p = kms.find((k) => k.name === name);
        if (p === undefined) {
          p = { name, envelope: new KmsV2Envelope(name, new KmsV2Client(str(c.endpoint), parseTimeoutMs(c.timeout))) };
          p.envelope.startPolling(KMS_STATUS_INTERVAL_MS);
          kms.push(p);
        }
        return { prefix: Buffer.from(`k8s:enc:kms:v2:${name}:`), transformer: p.envelope };
      }
      return { prefix: Buffer.alloc(0), transformer: identityTransformer };
    });
    const t = prefixTransformers('no matching prefix found', list);
    for (const r of arr(conf.resources).map(str)) {
      const gr = parseGroupResource(r);
      const k = `${gr.group}/${gr.resource}`;
      // An earlier rule masks a later one for the same resource (kube refuses that at load; first wins here).
      if (!byResource.has(k)) byResource.set(k, t);
    }
  }
  return {
    forResource: (gr) => byResource.get(`${gr.group}/${gr.resource}`) ?? byResource.get(`${gr.group}/*`) ?? byResource.get('*/*'),
    kmsProviders: kms,
    close: () => { for (const k of kms) { k.envelope.stopPolling(); k.envelope.client.close(); } },
  };
}
