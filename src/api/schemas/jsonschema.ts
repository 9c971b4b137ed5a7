/**
 * The JSON Schema validator lives in src/common/jsonschema.ts (the conductor's drivers use it too);
 * this module re-exports it and adds the API's own message form.
 */
import { bestMatch, iterErrors, Schema } from '../../common/jsonschema';

export { bestMatch, iterErrors } from '../../common/jsonschema';
export type { Schema } from '../../common/jsonschema';

/**
 * Ironic's args.schema validator message: "Schema error for NAME: MSG" plus ". Possible root cause: CAUSE"
 * when the chosen error has sub-errors. Returns null when the value is valid.
 */
export function schemaErrorMessage(name: string, value: unknown, schema: Schema): string | null {
  const best = bestMatch(iterErrors(value, schema));
  if (!best) return null;
  let message = `Schema error for ${name}: ${best.message}`;
  let current = best;
  let cause: string | null = null;
  while (current.context.length > 0) {
    current = bestMatch(current.context)!;
    cause = current.message;
  }
  if (cause !== null) message += `. Possible root cause: ${cause}`;
  return message;
}
