/** Where the Image API lives below the endpoint the [glance] adapter found. */

/**
 * The Image API root: glanceclient sends `/v2/...` below it, so a catalog URL that already
 * ends in a version is cut back to its root.
 */
export function imageApiRoot(endpoint: string): string {
  return endpoint.replace(/\/+$/, '').replace(/\/v\d+(\.\d+)?$/, '');
}
