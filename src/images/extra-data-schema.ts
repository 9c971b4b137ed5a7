/**
 * extra_data accepted for image customisation before deploy:
 *
 *   {
 *     "admin_pass": "s3cret",              // optional: root password; stored
 *                                          //   as a SHA-512 crypt hash in the
 *                                          //   root entry of /etc/shadow
 *     "files": [                           // optional: files written into the
 *       {"path": "/etc/motd",              //   image's root filesystem; path is
 *        "contents": "aGVsbG8K"}           //   absolute, contents base64
 *     ],
 *     "os_type": "linux"                   // optional: "linux" (default) or
 *   }                                      //   "windows" (not injectable here)
 *
 * No other keys are allowed. EXTRA_DATA_JSON_SCHEMA is the same contract as
 * a JSON Schema document, for API-side validation.
 */

interface InjectedFile {
  path: string;
  /** base64 */
  contents: string;
}

export interface ExtraData {
  admin_pass?: string;
  files?: InjectedFile[];
  os_type?: 'linux' | 'windows';
}

export class ExtraDataValidationError extends Error {
  override readonly name = 'ExtraDataValidationError';
}

function fail(msg: string): never {
  throw new ExtraDataValidationError(msg);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validateFile(f: unknown, i: number): InjectedFile {
  if (!isRecord(f)) fail(`files[${i}] must be an object`);
  const extra = Object.keys(f).filter((k) => k !== 'path' && k !== 'contents');
  if (extra.length) fail(`files[${i}] has unexpected keys: ${extra.join(', ')}`);
  const { path, contents } = f;
  if (typeof path !== 'string' || !/^\/[^"\n\r]*$/.test(path) || path.length > 4096) fail(`files[${i}].path must be an absolute path`);
  if (path.split('/').some((s) => s === '..')) fail(`files[${i}].path must not contain ".."`);
  if (path.endsWith('/')) fail(`files[${i}].path must name a file`);
  if (typeof contents !== 'string' || contents.replace(/\s+/g, '').length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(contents.replace(/\s+/g, ''))) {
    fail(`files[${i}].contents must be base64`);
  }
  return { path, contents };
}

/** Checks an untrusted value against the contract above and returns it typed. */
export function validateExtraData(value: unknown): ExtraData {
  if (!isRecord(value)) fail('extra_data must be an object');
  const extra = Object.keys(value).filter((k) => !['admin_pass', 'files', 'os_type'].includes(k));
  if (extra.length) fail(`extra_data has unexpected keys: ${extra.join(', ')}`);
  const out: ExtraData = {};
  if (value.admin_pass !== undefined) {
    if (typeof value.admin_pass !== 'string' || value.admin_pass.length === 0 || value.admin_pass.length > 255) fail('admin_pass must be a non-empty string');
    out.admin_pass = value.admin_pass;
  }
  if (value.files !== undefined) {
    if (!Array.isArray(value.files)) fail('files must be an array');
    out.files = value.files.map(validateFile);
  }
  if (value.os_type !== undefined) {
    if (value.os_type !== 'linux' && value.os_type !== 'windows') fail('os_type must be "linux" or "windows"');
    out.os_type = value.os_type;
  }
  return out;
}
