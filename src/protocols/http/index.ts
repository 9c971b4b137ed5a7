/** Public surface of the HTTP file server module. */
export { startHttpFileServer, HttpFileServerError, type HttpFileServer, type HttpFileServerOptions, type HttpRequestEvent } from './file-server';
export { parseRange, type ByteRange } from './range';
