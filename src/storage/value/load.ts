// Reading --encryption-provider-config: YAML or JSON, kind EncryptionConfiguration of
// apiserver.config.k8s.io/v1, validated before anything is built. Errors carry kube's texts, so a
// bad file stops start-up as it stops kube-apiserver.
// Counterpart of LoadEncryptionConfig in k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go.
import { readFileSync } from 'node:fs';
import { yamlToJSON } from '../../apimachinery/fieldvalidation/index.ts';
import { buildTransformers, validateEncryptionConfiguration, type EncryptionTransformers } from './config.ts';

const PARSING = 'error while parsing file: ';

export function loadEncryptionConfig(path: string): EncryptionTransformers {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${PARSING}error while loading file: error reading encryption provider configuration file ${JSON.stringify(path)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (text.length === 0) throw new Error(`${PARSING}error while loading file: encryption provider configuration file ${JSON.stringify(path)} is empty`);
  let cfg: unknown;
  try {
    cfg = yamlToJSON(text, false).value;
  } catch (err) {
    throw new Error(`${PARSING}error decoding encryption provider configuration file ${JSON.stringify(path)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) {
    throw new Error(`${PARSING}error decoding encryption provider configuration file ${JSON.stringify(path)}: not an object`);
  }
  const o = cfg as Record<string, unknown>;
  if (o.kind !== 'EncryptionConfiguration' || o.apiVersion !== 'apiserver.config.k8s.io/v1') {
    // The scheme knows only apiserver.config.k8s.io/v1 EncryptionConfiguration (kube's decoder message).
    throw new Error(`${PARSING}error decoding encryption provider configuration file ${JSON.stringify(path)}: no kind ${JSON.stringify(String(o.kind ?? ''))} is registered for version ${JSON.stringify(String(o.apiVersion ?? ''))} in scheme "pkg/runtime/scheme.go:111"`);
  }
  const errs = validateEncryptionConfiguration(o);
  if (errs.length > 0) throw new Error(`${PARSING}${errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`}`);
  return buildTransformers(o);
}
