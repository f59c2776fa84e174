// --token-auth-file (k8s.io/apiserver/pkg/authentication/token/tokenfile): a CSV file of
// `token,user,uid[,"group1,group2"]`, read once at start.
import { readFile } from 'node:fs/promises';
import type { UserInfo } from '../apimachinery/request/context.ts';
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';
import { readCSV } from './csv.ts';


export interface ParsedTokenFile {
  readonly tokens: ReadonlyMap<string, UserInfo>;
  /** Empty and duplicate tokens, which kube logs as warnings. */
  readonly warnings: readonly string[];
}

/**
 * Parses the file's text. Throws with kube's messages: a CSV quoting error
 * (`parse error on line 1, column 4: bare " in non-quoted-field`) or
 * `token file '<path>' must have at least 3 columns (token, user name, user uid), found 2`.
 * A later duplicate token replaces the earlier one; a row with an empty token is skipped.
 */
export function parseTokenFile(text: string, path: string): ParsedTokenFile {
  const tokens = new Map<string, UserInfo>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const record of readCSV(text)) {
    if (record.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    recordNum++;
    const [token = '', name = '', uid = '', groups] = record;
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token)) warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    const user: { name: string; uid: string; groups: string[] } = { name, uid, groups: [] };
    // Go's strings.Split: an empty fourth column is one empty group name.
    if (groups !== undefined) user.groups = groups.split(',');
    tokens.set(token, user);
  }
  return { tokens, warnings };
}

/** Reads and parses the file; a missing file fails as Go's os.Open does (`open <path>: no such file or directory`). */
export async function loadTokenFile(path: string): Promise<ParsedTokenFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`open ${path}: no such file or directory`);
    if (code === 'EACCES') throw new Error(`open ${path}: permission denied`);
    throw err;
  }
  return parseTokenFile(text, path);
}

/** A TokenAuthenticator over a fixed table of tokens. */
export function newStaticTokenAuthenticator(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  return {
    authenticateToken(token: string): Promise<AuthResponse | undefined> {
      const user = tokens.get(token);
      return Promise.resolve(user === undefined ? undefined : { user });
    },
  };
}
