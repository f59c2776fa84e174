// --admission-control-config-file: an AdmissionConfiguration (apiserver.config.k8s.io/v1 or
// apiserver.k8s.io/v1alpha1, YAML or JSON, decoded strictly) naming per-plugin configuration,
// inline (`configuration`) or in a file (`path`, relative to the configuration file). Each
// enabled plugin is handed the raw text of its configuration; entries for plugins that are not
// enabled (or do not exist) are ignored, as kube ignores them. Errors carry kube's texts.
// Counterpart of k8s.io/apiserver/pkg/admission/config.go (ReadAdmissionConfiguration, ConfigFor).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { goQuote } from '../apimachinery/goformat/index.ts';
import {
  decodeConfigFile, decodeStrictJSON, walkValue, type Shape,
} from '../apimachinery/fieldvalidation/index.ts';

/** The plugins whose configuration was an unversioned file before AdmissionConfiguration existed. */
const LEGACY_PLUGINS = ['ImagePolicyWebhook', 'PodNodeSelector'];
const LEGACY_KEYS = ['imagePolicy', 'podNodeSelectorPluginConfig'];

/** The versions that register the kind AdmissionConfiguration (v1beta1 and apiserver.config.k8s.io/v1alpha1 do not). */
const VERSIONS: Readonly<Record<string, string>> = {
  'apiserver.config.k8s.io/v1': 'v1', 'apiserver.k8s.io/v1alpha1': 'v1alpha1',
};

const str: Shape = { kind: 'scalar', goName: 'string', json: 'string' };
function configShape(pkg: string): Shape {
  const plugin: Shape = {
    kind: 'struct', goName: `${pkg}.AdmissionPluginConfiguration`, preserveUnknown: false,
    fields: (n) => (n === 'name' || n === 'path' ? str : n === 'configuration' ? { kind: 'opaque', goName: '*runtime.Unknown' } : undefined),
  };
  return {
    kind: 'struct', goName: `${pkg}.AdmissionConfiguration`, preserveUnknown: false,
    fields: (n) => (n === 'apiVersion' || n === 'kind' ? str
      : n === 'plugins' ? { kind: 'slice', goName: `[]${pkg}.AdmissionPluginConfiguration`, elem: () => plugin } : undefined),
  };
}

interface PluginEntry {
  readonly name: string;
  /** Made absolute as kube's makeAbs does (relative still when the configuration file's path is). */
  readonly path: string;
  /** The inline configuration as JSON text. */
  readonly configuration: string | undefined;
}

/** What ConfigFor answers: the raw configuration of each plugin named in the file. */
export class AdmissionConfigProvider {
  constructor(private readonly plugins: readonly PluginEntry[], private readonly cwd = process.cwd()) {}

  /** The configuration text of `plugin` (inline first, else its file), or undefined when none is given. */
  configFor(plugin: string): string | undefined {
    const e = this.plugins.find((p) => p.name === plugin);
    if (e === undefined) return undefined;
    if (e.configuration !== undefined) return e.configuration;
    if (e.path === '') return undefined;
    try {
      return readFileSync(resolve(this.cwd, e.path), 'utf8');
    } catch (err) {
      // kube exits here (klog.Fatalf), printing the error with %#v.
      const errno = Math.abs((err as NodeJS.ErrnoException).errno ?? 0);
      throw new Error(`Couldn't open admission plugin configuration ${e.path}: &fs.PathError{Op:"open", Path:"${e.path}", Err:0x${errno.toString(16)}}`);
    }
  }
}

const osError = (err: unknown, path: string): string =>
  (err as NodeJS.ErrnoException).code === 'ENOENT' ? `open ${path}: no such file or directory`
    : (err as NodeJS.ErrnoException).code === 'EACCES' ? `open ${path}: permission denied` : `open ${path}: ${(err as Error).message}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * ReadAdmissionConfiguration: '' gives an empty configuration. `enabled` are the plugins of the
 * chain, for the legacy file format. Throws kube's message after "failed to read plugin config: ".
 */
export function readAdmissionConfiguration(enabled: readonly string[], file: string, cwd = process.cwd()): AdmissionConfigProvider {
  if (file === '') return new AdmissionConfigProvider([]);
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new Error(`unable to read admission control configuration from ${goQuote(file)} [${osError(err, file)}]`);
  }
  const isJSON = text.trimStart().startsWith('{');
  const { value, obj, duplicateError: dupError } = decodeConfigFile(text);
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  const pkg = VERSIONS[apiVersion];
  const missing = kind === '' ? 'Kind' : apiVersion === '' ? 'apiVersion' : undefined;
  const notRegistered = missing === undefined && !(kind === 'AdmissionConfiguration' ? pkg !== undefined : KNOWN_KINDS.has(`${apiVersion}/${kind}`));
  if (missing !== undefined || notRegistered) {
    // Files from before AdmissionConfiguration: the whole file configures the legacy plugins.
    if (isObject(value) && LEGACY_KEYS.some((k) => k in obj)) {
      return new AdmissionConfigProvider(enabled.filter((p) => LEGACY_PLUGINS.includes(p)).map((name) => ({ name, path: file, configuration: undefined })), cwd);
    }
    if (missing !== undefined) throw new Error(`Object '${missing}' is missing in '${text}'`);
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  if (kind !== 'AdmissionConfiguration') throw new Error(`unexpected type: *apiserver.${kind}`);
  const problems: string[] = [];
  let typeError: string | undefined;
  if (isJSON) {
    const r = decodeStrictJSON(text, configShape(pkg ?? 'v1'));
    problems.push(...r.strictErrors);
    typeError = r.typeError;
  } else {
    const w = walkValue(value, configShape(pkg ?? 'v1'), false);
    if (dupError !== undefined) problems.push(dupError);
    problems.push(...w.unknownFields);
    typeError = w.typeError;
  }
  if (typeError !== undefined) throw new Error(typeError);
  if (problems.length > 0) throw new Error(`strict decoding error: ${problems.join(', ')}`);
  // makeAbs: relative to the configuration file's folder as given (the working directory for '.').
  const given = dirname(file);
  const base = given === '.' ? cwd : given;
  const plugins = Array.isArray(obj['plugins']) ? obj['plugins'] : [];
  return new AdmissionConfigProvider(plugins.filter(isObject).map((p) => {
    const path = typeof p['path'] === 'string' ? p['path'] : '';
    const cfg = p['configuration'];
    return {
      name: typeof p['name'] === 'string' ? p['name'] : '',
      path: path === '' || isAbsolute(path) ? path : join(base, path),
      configuration: cfg === undefined || cfg === null ? undefined : JSON.stringify(cfg),
    };
  }), cwd);
}

/** The other kinds of the two versions: decoding succeeds, and kube then refuses their type. */
const KNOWN_KINDS = new Set([
  'apiserver.config.k8s.io/v1/AuthenticationConfiguration', 'apiserver.config.k8s.io/v1/AuthorizationConfiguration',
  'apiserver.config.k8s.io/v1/EncryptionConfiguration', 'apiserver.config.k8s.io/v1/TracingConfiguration',
  'apiserver.k8s.io/v1alpha1/EgressSelectorConfiguration', 'apiserver.config.k8s.io/v1alpha1/AuthenticationConfiguration',
  'apiserver.config.k8s.io/v1alpha1/AuthorizationConfiguration', 'apiserver.config.k8s.io/v1alpha1/TracingConfiguration',
]);
