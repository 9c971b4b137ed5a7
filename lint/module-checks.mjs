// Two checks over the module graph (module-graph.mjs), run by scripts/lint.sh:
// - no import cycle among src/ modules, type-only imports included (a type cycle still ties two
//   modules' designs together, and one is a runtime cycle once a value is imported);
// - no export of src/ that no other file in the repository uses (by name, through a namespace
//   import, or re-exported wholesale): such an export is dead or belongs to its own file only.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAll } from './module-graph.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const inSrc = (file) => file.startsWith('src/');

/** Tarjan's strongly connected components of size > 1 (or a self-import). */
function cycles(modules) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of modules.get(v).allImports) {
      if (!inSrc(w) || !modules.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || modules.get(v).allImports.has(v)) found.push(component.sort());
  };
  for (const file of modules.keys()) if (inSrc(file) && !index.has(file)) visit(file);
  return found;
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** target file → names used by other files; '*' when every export is. */
function usedNames(modules) {
  const used = new Map();
  const mark = (target, name) => {
    if (!used.has(target)) used.set(target, new Set());
    used.get(target).add(name);
  };
  for (const mod of modules.values()) {
    for (const { target, name } of mod.imports) if (target !== mod.file) mark(target, name);
    for (const target of mod.reexportsAll) mark(target, '*');
    for (const { target, alias } of mod.namespaces) {
      const a = escapeRegex(alias);
      for (const m of mod.text.matchAll(new RegExp(`\\b${a}\\.([A-Za-z_$][\\w$]*)`, 'g'))) mark(target, m[1]);
      // Used as a value (indexed, passed, cast): any export may be reached.
      const asValue = new RegExp(`(?<!\\*\\s+as\\s+)\\b${a}\\b(?!\\s*\\.)`, 'g');
      if ([...mod.text.matchAll(asValue)].length > 0) mark(target, '*');
    }
  }
  return used;
}

function unusedExports(modules) {
  const used = usedNames(modules);
  const out = [];
  for (const mod of modules.values()) {
    if (!inSrc(mod.file)) continue;
    const names = used.get(mod.file) ?? new Set();
    if (names.has('*')) continue;
    for (const name of new Set(mod.exports)) if (!names.has(name)) out.push(`${mod.file}: ${name}`);
  }
  return out.sort();
}

const modules = readAll(ROOT);
const cyclic = cycles(modules);
const unused = unusedExports(modules);
for (const c of cyclic) console.log(`import cycle: ${c.join(' <-> ')}`);
for (const u of unused) console.log(`unused export: ${u}`);
console.log(`module checks: ${modules.size} files, ${cyclic.length} import cycles, ${unused.length} unused exports`);
process.exitCode = cyclic.length + unused.length > 0 ? 1 : 0;
