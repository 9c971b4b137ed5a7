/** Public surface of the HTTP file server module. */
export { startHttpFileServer, type HttpFileServer } from './file-server';
