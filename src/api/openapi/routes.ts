/** The routes the API actually serves, read from the routers themselves. */
import { RESOURCE_ROUTERS } from '../controllers';
import { v1IndexRouter } from '../controllers/root';

interface ServedRoute {
  method: string;
  path: string;
}

export function servedRoutes(): ServedRoute[] {
  const seen = new Set<string>();
  const routes: ServedRoute[] = [];
  for (const make of [v1IndexRouter, ...RESOURCE_ROUTERS]) {
    for (const layer of make().stack) {
      for (const method of layer.methods) {
        const key = `${method} ${layer.path}`;
        if (method === 'HEAD' || seen.has(key)) continue;
        seen.add(key);
        routes.push({ method, path: String(layer.path) });
      }
    }
  }
  return routes;
}
