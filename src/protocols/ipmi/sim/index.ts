export { SimBmc, type SimBmcOptions } from './sim-bmc';
export { SimBmcFarm } from './farm';
