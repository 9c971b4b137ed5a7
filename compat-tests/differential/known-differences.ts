// Differences accepted on purpose, keyed "group/case name", each with the reason it is acceptable.
// Keep this empty unless a difference is truly harmless and cannot be removed; every entry hides a bug class.
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};
