/**
 * The one node repository: rows (records.ts), listings (listing.ts), the reservation behind
 * conductor locks (locks.ts) and the periodic tasks' scans (scans.ts). Errors are the database
 * layer's (db/errors.ts), mapped to Ironic's at the API and RPC boundaries.
 */
export type { NodeFilters } from '../node-filters';
export * from './records';
export * from './listing';
export * from './locks';
export * from './scans';
