/**
 * API microversions: the range served, pinning by `[DEFAULT]pin_release_version` as Ironic does,
 * and the named gates the controllers check.
 */
import { lookupTable } from '../common/own-keys';
export const MIN_MINOR = 1;
/** The highest version whose every gated behaviour ironic-ts implements. */
export const MAX_MINOR = 96;

/** Ironic's release mapping (release name → API microversion), for pin_release_version. */
const RELEASE_API: Record<string, number> = lookupTable({
  '9.2': 35, '10.0': 36, '10.1': 38, '11.0': 43, '11.1': 46, '12.0': 49, '12.1': 56, '12.2': 58,
  '13.0': 58, '14.0': 61, '15.0': 65, '15.1': 67, '16.0': 68, '16.1': 68, '16.2': 69, '17.0': 72,
  '18.0': 74, '18.1': 75, '18.2': 78, '19.0': 78, '20.0': 78, '20.1': 78, '20.2': 78, '21.0': 79,
  '21.1': 80, '21.2': 80, '21.3': 81, '21.4': 82, yoga: 78, zed: 80, antelope: 82, '2023.1': 82,
  '23.0': 87, '2023.2': 87, '24.1': 90, '2024.1': 90, '26.1': 93, '2024.2': 93, '29.0': 96,
  '2025.1': 96, '32.0': 101, '2025.2': 101, '35.0': 111, '2026.1': 111,
});

export function maxMinorFor(pinRelease: string | null): number {
  const pinned = pinRelease ? RELEASE_API[pinRelease] : undefined;
  return pinned !== undefined ? Math.min(pinned, MAX_MINOR) : MAX_MINOR;
}

export function versionString(minor: number): string {
  return `1.${minor}`;
}

export { V } from '../common/microversions';
