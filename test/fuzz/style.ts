/**
 * Two styles of request. `plausible` ones are mostly valid (right method, a served version, real
 * identifiers, known fields with sensible values) with a little noise, so they get past the
 * validators, change state and reach the code behind; `hostile` ones are noise throughout.
 * Each generator takes the style and weighs its choices by it.
 */
export type Style = 'plausible' | 'hostile';

/** The weight of a choice in each style. */
export function weight(style: Style, plausible: number, hostile: number): number {
  return style === 'plausible' ? plausible : hostile;
}
