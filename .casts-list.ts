import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
function walk(d: string, out: string[]): string[] {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) { if (f !== 'generated' && f !== 'testing') walk(p, out); }
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
for (const area of process.argv.slice(2)) for (const f of walk(area, [])) {
  const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && n.type.getText(src) !== 'const') {
      const { line } = src.getLineAndCharacterOfPosition(n.getStart());
      console.log(`${f}:${line + 1}: ${n.getText(src).replace(/\s+/g, ' ').slice(0, 150)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
