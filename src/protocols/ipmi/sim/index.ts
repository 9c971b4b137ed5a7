export { SimBmc, type SimBmcOptions } from './sim-bmc';
export { SimBmcFarm } from './farm';
export { BmcModel } from './bmc-model';
export type { SimUser } from './rmcpplus-responder';
