// Members of a Redfish collection, following Members@odata.nextLink pages (bounded, so a BMC that
// links pages in a loop cannot keep us busy forever).

import { RedfishConnection } from './connection';
import { RedfishInvalidResponseError } from './errors';
import { collectionMembers, stringField } from './json';

const MAX_PAGES = 100;

export async function listMembers(conn: RedfishConnection, path: string): Promise<string[]> {
  const members: string[] = [];
  const visited = new Set<string>();
  let next: string | null = path;
  while (next !== null) {
    if (visited.has(next) || visited.size >= MAX_PAGES) {
      throw new RedfishInvalidResponseError(`Collection ${path} pages loop or exceed ${MAX_PAGES} pages`, path);
    }
    visited.add(next);
    const page = await conn.get(next);
    members.push(...collectionMembers(page));
    next = stringField(page, 'Members@odata.nextLink');
  }
  return members;
}
