/**
 * The one validation idiom for operator input (config vars, the POLICY var, admin bodies such
 * as a pause): a value, or every problem found at once, each saying what to fix. Validation
 * never throws on bad input and never returns half a value.
 */

/** A validated value, or the list of problems that kept it from being one. */
export type Validated<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: string[] };

/** A successful validation. */
export function valid<T>(value: T): Validated<T> {
  return { ok: true, value };
}

/** A failed validation; `problems` must not be empty. */
export function invalid<T = never>(problems: string[]): Validated<T> {
  return { ok: false, problems };
}
