/** Public surface of the TFTP module. */
export { start, type TftpServer, type TftpServerOptions } from './server';
