// Parses proto definitions embedded as text with proto-loader, which reads files only: the texts
// are written to a private temp dir, parsed, and the dir removed at once. Used by the etcd client
// and the KMS v2 plugin client, each once per process.
// No Go counterpart: Go links generated stubs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';

/** `files`: file name -> proto text (imports name each other); `entry`: the file to load. */
export function loadProtoText(files: Readonly<Record<string, string>>, entry: string, options: Options): PackageDefinition {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-proto-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return loadSync(join(dir, entry), { ...options, includeDirs: [dir] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
