// Scratch: counts type assertions (x as T, excluding `as const`) per area, and what they cast to.
import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
const root = process.argv[2] ?? '.';
function walk(d: string, out: string[]): string[] {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) { if (f !== 'generated' && f !== 'testing') walk(p, out); }
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const areas = ['src/controlplane', 'src/admission/plugins', 'src/authz', 'src/endpoints', 'src'];
for (const area of areas) {
  let casts = 0, rec = 0, unk = 0, objCalls = 0;
  for (const f of walk(join(root, area), [])) {
    const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) {
        const t = n.type.getText(src);
        if (t !== 'const') { casts++; if (/^(Readonly<)?Record<string, unknown>>?(\s*\|.*)?$/.test(t)) rec++; if (t === 'unknown') unk++; }
      }
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && ['obj', 'asObj', 'asRecord', 'record', 'isObj'].includes(n.expression.text)) objCalls++;
      ts.forEachChild(n, visit);
    };
    visit(src);
  }
  console.log(`${area}: casts=${casts} (to Record<string, unknown>: ${rec}, to unknown: ${unk}); obj()/asRecord()-style probes=${objCalls}`);
}
