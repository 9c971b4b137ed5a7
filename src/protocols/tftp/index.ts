/** Public surface of the TFTP module. */
export { start, TftpServerError, type TftpServer, type TftpServerOptions, type TransferEvent } from './server';
export { renderTftpdHpaConfig, writeTftpdHpaConfig, type TftpdHpaOptions, type TftpdHpaFiles } from './tftpd-hpa';
export { TftpErrorCode } from './packets';
