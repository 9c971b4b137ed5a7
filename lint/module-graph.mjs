// The project's module graph read with TypeScript 5's parser: each file's relative imports and
// re-exports (runtime or type-only), its namespace imports and the names it exports. Used by
// module-checks.mjs for the import-cycle and unused-export checks.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SOURCE_DIRS = ['src', 'test', 'compat-tests', 'bench', 'migrations'];

export function tsFiles(root, dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path.relative(root, full));
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return out.sort();
}

/** './x' from a/b.ts → a/x.ts or a/x/index.ts; null for packages and node: modules. */
function resolve(root, from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.relative(root, path.resolve(root, path.dirname(from), specifier));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(path.join(root, candidate))) return candidate;
  }
  return null;
}

const hasExportModifier = (node) => (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function declaredNames(node) {
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.flatMap((d) => ts.isIdentifier(d.name) ? [d.name.text] : []);
  return node.name && ts.isIdentifier(node.name) ? [node.name.text] : [];
}

/** Everything module-checks needs from one file. */
export function readModule(root, file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const mod = { file, runtimeImports: new Set(), allImports: new Set(), imports: [], namespaces: [], exports: [], reexportsAll: [], text };
  for (const node of sf.statements) {
    if (ts.isImportDeclaration(node)) readImport(root, file, node, mod);
    else if (ts.isExportDeclaration(node)) readExport(root, file, node, mod);
    else if (hasExportModifier(node)) mod.exports.push(...declaredNames(node));
  }
  return mod;
}

function readImport(root, file, node, mod) {
  const target = resolve(root, file, node.moduleSpecifier.text);
  if (target === null) return;
  const clause = node.importClause;
  const bindings = clause?.namedBindings;
  const named = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
  const typeOnly = clause?.isTypeOnly || (clause && !clause.name && named.length > 0 && named.every((e) => e.isTypeOnly));
  if (!typeOnly) mod.runtimeImports.add(target);
  mod.allImports.add(target);
  for (const element of named) mod.imports.push({ target, name: (element.propertyName ?? element.name).text });
  if (bindings && ts.isNamespaceImport(bindings)) mod.namespaces.push({ target, alias: bindings.name.text });
  if (clause?.name) mod.imports.push({ target, name: 'default' });
}

function readExport(root, file, node, mod) {
  if (!node.moduleSpecifier) {
    // export { a, b }: local names made public.
    if (node.exportClause && ts.isNamedExports(node.exportClause)) {
      mod.exports.push(...node.exportClause.elements.map((e) => e.name.text));
    }
    return;
  }
  const target = resolve(root, file, node.moduleSpecifier.text);
  if (target === null) return;
  if (!node.isTypeOnly) mod.runtimeImports.add(target);
  mod.allImports.add(target);
  if (!node.exportClause) mod.reexportsAll.push(target);
  else if (ts.isNamedExports(node.exportClause)) {
    for (const e of node.exportClause.elements) {
      mod.imports.push({ target, name: (e.propertyName ?? e.name).text });
      mod.exports.push(e.name.text);
    }
  }
}

export function readAll(root) {
  const modules = new Map();
  for (const dir of SOURCE_DIRS) for (const file of tsFiles(root, dir)) modules.set(file, readModule(root, file));
  return modules;
}
