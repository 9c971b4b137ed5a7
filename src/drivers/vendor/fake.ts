/**
 * Fake vendor interface (drivers/modules/fake.py FakeVendorB, the `fake` vendor entry point):
 * three POST methods that answer whether `bar` holds their magic word, and `log_passthrough`, a
 * method that is also a clean and a service step. Routes are listed in Ironic's order (attribute
 * names sorted), which is what `vendor_passthru/methods` shows. `trigger_servicewait` is a service
 * step that leaves the node in `service wait`.
 */
import { InvalidParameterValue, MissingParameterValue, VendorPassthruException, withCode } from '../../common/errors';
import * as states from '../../common/states';
import type { VendorInterface, VendorRoute } from '../base';
import { declareSteps, type DeclaredStep } from '../declared-steps';
import { pyTruthy } from '../../common/python/truthiness';
import { lookupTable } from '../../common/own-keys';

const LOG_PASSTHROUGH = 'log_passthrough';

const ROUTES: Readonly<Record<string, VendorRoute>> = lookupTable({
  fourth_method_shared_lock: {
    httpMethods: ['POST'], async: true, description: 'Test if the value of bar is woof', requireExclusiveLock: false,
  },
  [LOG_PASSTHROUGH]: { httpMethods: ['POST'], async: true, description: 'Test pass-through to wait.' },
  second_method: { httpMethods: ['POST'], async: true, description: 'Test if the value of bar is kazoo' },
  third_method_sync: { httpMethods: ['POST'], async: false, description: 'Test if the value of bar is meow' },
});

/** The word each method compares `bar` with. */
const MAGIC: Readonly<Record<string, string>> = lookupTable({
  fourth_method_shared_lock: 'woof', second_method: 'kazoo', third_method_sync: 'meow',
});

const logPassthrough = async (): Promise<null> => null;

/** log_passthrough carries two decorators: a clean step of priority 1 and an out-of-band service step. */
const STEPS: readonly DeclaredStep[] = [
  { step: LOG_PASSTHROUGH, kinds: ['clean'], priority: 1, run: logPassthrough },
  { step: LOG_PASSTHROUGH, kinds: ['service'], priority: 0, requiresRamdisk: false, run: logPassthrough },
  { step: 'trigger_servicewait', kinds: ['service'], priority: 0, run: async () => states.SERVICEWAIT },
];

export function createFakeVendor(): VendorInterface {
  return {
    kind: 'vendor', name: 'fake', className: 'FakeVendorB',
    ...declareSteps('vendor', STEPS),
    properties: () => ({ B1: 'B1 description. Required.', B2: 'B2 description. Required.' }),
    async validate() {},
    routes: ROUTES,
    async validateMethod(_task, method, args) {
      if (Object.hasOwn(MAGIC, method) && !pyTruthy(args.bar)) {
        throw new MissingParameterValue(`Parameter 'bar' not passed to method '${method}'.`);
      }
    },
    async invoke(_task, method, args) {
      if (method === LOG_PASSTHROUGH) return null;
      if (!Object.hasOwn(MAGIC, method)) throw new InvalidParameterValue(`No handler for method ${method}`);
      // The Python methods take (task, http_method, bar): any other argument is a TypeError,
      // which Ironic's passthru wrapper reports as VendorPassthruException (a 500); the caller
      // sent it, so it is a 400 here.
      const extra = Object.keys(args).find((k) => k !== 'bar' && k !== 'http_method');
      if (extra !== undefined) {
        throw withCode(new VendorPassthruException(`FakeVendorB.${method}() got an unexpected keyword argument '${extra}'`), 400);
      }
      return args.bar === MAGIC[method];
    },
  };
}
