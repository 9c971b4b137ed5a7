/** Reads `python3 -W ignore -m unittest -v` output: each test's outcome, and the failure texts by test. */

export type Outcome = 'ok' | 'FAIL' | 'ERROR' | 'skipped' | 'expected failure' | 'unexpected success';

export interface TestOutcome {
  /** Dotted id: module.Class.test_name (tempest's `[id-…]` tag removed). */
  id: string;
  outcome: Outcome;
}

const OUTCOME = '(ok|FAIL|ERROR|skipped|expected failure|unexpected success)';
// A test with a description (tempest's: its id with tags) ends its line "module.Class.test[id-…] ... ok";
// one without, "test (module.Class.test) ... ok".
const LINE = new RegExp(`^(?:([\\w.]+?)(?:\\[[^\\]]*\\])?|\\w+ \\(([\\w.]+)\\)) \\.\\.\\. ${OUTCOME}`, 'gm');
// "FAIL: test (module.Class.test)", the description line, then the traceback up to the next separator.
const DETAIL = /^(?:FAIL|ERROR): \S+ \(([\w.]+)\)\n(?:.*\n)?-{20,}\n([\s\S]*?)(?=\n={20,}|\n-{20,}\nRan )/gm;

export function outcomes(output: string): TestOutcome[] {
  return [...output.matchAll(LINE)].map((m) => ({ id: m[1] ?? m[2], outcome: m[3] as Outcome }));
}

export function failureTexts(output: string): Map<string, string> {
  return new Map([...output.matchAll(DETAIL)].map((m) => [m[1], m[2].slice(-1500)]));
}
