/**
 * Renders the boot templates shipped in <project>/templates, or an operator
 * supplied template file given by absolute path (Ironic's
 * [pxe]pxe_config_template and friends accept a path).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type nunjucks from 'nunjucks';

/** nunjucks is loaded when the first boot file is rendered: conductors without network boot never need it. */
function nunjucksLib(): typeof nunjucks {
  return require('nunjucks') as typeof nunjucks;
}

class BootTemplateError extends Error {
  override readonly name = 'BootTemplateError';
}

/** Works from both src/boot (ts sources) and dist/src/boot (compiled). */
function bundledTemplatesDir(): string {
  for (const up of ['../..', '../../..']) {
    const dir = path.resolve(__dirname, up, 'templates');
    if (fs.existsSync(path.join(dir, 'pxe_config.template'))) return dir;
  }
  throw new BootTemplateError('bundled templates directory not found');
}

const environments = new Map<string, nunjucks.Environment>();

function environmentFor(dir: string): nunjucks.Environment {
  let env = environments.get(dir);
  if (!env) {
    // No autoescape: these are boot loader scripts, not HTML.
    env = new (nunjucksLib().Environment)(new (nunjucksLib().FileSystemLoader)(dir, { noCache: true }), { autoescape: false });
    environments.set(dir, env);
  }
  return env;
}

/** `template` is a bundled template name or an absolute path to a file. */
export function renderTemplate(template: string, context: object): string {
  const file = path.isAbsolute(template) ? template : path.join(bundledTemplatesDir(), template);
  if (!fs.existsSync(file)) throw new BootTemplateError(`template ${template} not found`);
  try {
    return environmentFor(path.dirname(file)).render(path.basename(file), context);
  } catch (err) {
    throw new BootTemplateError(`cannot render ${template}: ${(err as Error).message}`);
  }
}
