// Reading --encryption-provider-config: YAML or JSON, kind EncryptionConfiguration of
// apiserver.config.k8s.io/v1, validated before anything is built. Errors carry kube's texts, so a
// bad file stops start-up as it stops kube-apiserver.
// Counterpart of LoadEncryptionConfig in k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go.
import { readFileSync } from 'node:fs';
import { yamlToJSON } from '../../apimachinery/fieldvalidation/index.ts';
import { buildTransformers, validateEncryptionConfiguration, type EncryptionTransformers } from './config.ts';

export function loadEncryptionConfig(path: string): EncryptionTransformers {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`error while loading file: error reading encryption provider configuration file ${JSON.stringify(path)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (text.trim() === '') throw new Error(`error while loading file: encryption provider configuration file ${JSON.stringify(path)} is empty`);
  let cfg: unknown;
  try {
    cfg = yamlToJSON(text, false).value;
  } catch (err) {
    throw new Error(`error while loading file: error decoding encryption provider configuration file ${JSON.stringify(path)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) {
    throw new Error(`error while loading file: error decoding encryption provider configuration file ${JSON.stringify(path)}: not an object`);
  }
  const o = cfg as Record<string, unknown>;
  if (o.kind !== 'EncryptionConfiguration' || o.apiVersion !== 'apiserver.config.k8s.io/v1') {
    throw new Error(`error while loading file: got unexpected config type: ${String(o.apiVersion)}, Kind=${String(o.kind)}`);
  }
  const errs = validateEncryptionConfiguration(o);
  if (errs.length > 0) throw new Error(`error while parsing file: ${errs.length === 1 ? errs[0] ?? '' : `[${errs.join(', ')}]`}`);
  return buildTransformers(o);
}
