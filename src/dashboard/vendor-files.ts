/**
 * The only files of node_modules the dashboard serves, under /dashboard/vendor/<name>: an
 * allow-list (a Map, so a request names an entry or nothing), each resolved through Node's
 * resolver at start. The front end fills it in with the packages its pages load.
 */
import * as path from 'node:path';

/**
 * htm's exports map hides its browser builds from require.resolve (its "./" folder mapping is one
 * Node no longer reads), so they are named by path from the package's folder, found through its
 * main file (node_modules/htm/dist/htm.js).
 */
const HTM_ROOT = path.dirname(path.dirname(require.resolve('htm')));

export const VENDOR_FILES: ReadonlyMap<string, string> = new Map<string, string>([
  // Preact with hooks and htm in one ES module without bare imports (no import map needed).
  ['htm/preact/standalone.module.js', path.join(HTM_ROOT, 'preact', 'standalone.module.js')],
  ['@xterm/xterm/lib/xterm.mjs', '@xterm/xterm/lib/xterm.mjs'],
  ['@xterm/xterm/css/xterm.css', '@xterm/xterm/css/xterm.css'],
  ['@xterm/addon-fit/lib/addon-fit.mjs', '@xterm/addon-fit/lib/addon-fit.mjs'],
]);
