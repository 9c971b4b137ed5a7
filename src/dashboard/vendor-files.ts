/**
 * The only files of node_modules the dashboard serves, under /dashboard/vendor/<name>: an
 * allow-list (a Map, so a request names an entry or nothing), each resolved through Node's
 * resolver at start. The front end fills it in with the packages its pages load.
 */
export const VENDOR_FILES: ReadonlyMap<string, string> = new Map<string, string>([
]);
