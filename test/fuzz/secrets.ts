/**
 * The secrets the fuzz fixtures store, and how a response or a log line is searched for them.
 * Every secret carries MARK, an alphanumeric token: JSON, Python repr and URL encoding all leave
 * it as is, so a plain byte search finds it in any of those renderings.
 */
export const MARK = 'Zq9SECRETxk7';

/** One secret per place it is stored, so a leak names its source. */
export const SECRET = {
  ipmiPassword: `${MARK}ipmi`,
  redfishPassword: `${MARK}redfish`,
  bmcUrlPassword: `${MARK}bmcurl`,
  imageUrlPassword: `${MARK}imgsrc`,
  configdrive: `${MARK}configdrive`,
  imageUrl: `${MARK}imageurl`,
  agentToken: `${MARK}agenttoken`,
  historyUrl: `${MARK}history`,
  templateArg: `${MARK}template`,
  volumePassword: `${MARK}volume`,
  allocationError: `${MARK}allocerr`,
  confPassword: `${MARK}conf`,
  wrongPassword: `${MARK}wrongpw`,
} as const;

const MARK_BYTES = Buffer.from(MARK);
const SECRET_NAME = new RegExp(`${MARK}([a-z]+)`);

/**
 * Every distinct secret in `data`, each as its name with some context on a second line. All of
 * them, not the first: one leak must not hide another further on in the same answer.
 */
export function findSecrets(data: Buffer | string): string[] {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  const found = new Map<string, string>();
  for (let at = buf.indexOf(MARK_BYTES); at >= 0; at = buf.indexOf(MARK_BYTES, at + MARK.length)) {
    const name = SECRET_NAME.exec(buf.subarray(at, at + MARK.length + 20).toString('latin1'))?.[1] ?? '?';
    if (found.has(name)) continue;
    const context = buf.subarray(Math.max(0, at - 60), at + MARK.length + 40).toString('utf8');
    found.set(name, `secret ${name}\n      context: …${JSON.stringify(context).slice(1, -1)}…`);
  }
  return [...found.values()];
}

/** Whether a request already carries the mark (then its response may echo it legitimately). */
export function carriesMark(parts: Array<Buffer | string>): boolean {
  return parts.some((p) => (typeof p === 'string' ? p.includes(MARK) : p.includes(MARK_BYTES)));
}
