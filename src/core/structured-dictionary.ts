/**
 * RFC 9651 §4.2.2 (Structured Field Values): parse a Dictionary, as AIPREF's preference
 * statements are written (draft-ietf-aipref-vocab-07 §6). Strict: any deviation from the
 * grammar fails the whole dictionary, which the vocabulary turns into "every preference
 * unknown" (vocab §6.5.1). The input is the text after the path of a `Content-Usage` line.
 *
 * The parsing is the `structured-headers` package's (already in the bundle for Web Bot Auth's
 * Signature-Input). It passes every row of test/core/structured-dictionary.test.ts, the strict
 * failures included. Measured against the hand-written parser it replaced: about 6 µs per
 * two-member statement instead of 3 µs, and 80 ms instead of 50 ms for a 240 KB statement; a
 * statement is parsed once per robots.txt fetch, never per request, so the difference buys
 * nothing worth 278 lines of our own.
 *
 * Only Token values are kept, since nothing else can carry a preference; every other value is
 * validated by the parse and kept as its serialization, for diagnostics. Parameters are
 * validated and dropped (vocab §6.5.2).
 */

import {
  parseDictionary as parseStructuredDictionary,
  serializeInnerList,
  serializeItem,
  Token,
} from "structured-headers";

/** One dictionary member: the Token value, or undefined for any other value type. */
export interface DictionaryMember {
  readonly token: string | undefined;
  /** The value serialized (empty for a bare key, which means Boolean true). */
  readonly raw: string;
}

export type DictionaryReading =
  | { readonly ok: true; readonly members: ReadonlyMap<string, DictionaryMember> }
  | { readonly ok: false; readonly error: string };

/** Parse an RFC 9651 Dictionary; a duplicate key keeps its last value (§4.2.2). */
export function parseDictionary(input: string): DictionaryReading {
  let dictionary: ReturnType<typeof parseStructuredDictionary>;
  try {
    dictionary = parseStructuredDictionary(input);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const members = new Map<string, DictionaryMember>();
  for (const [key, member] of dictionary) {
    const [value] = member;
    if (Array.isArray(value)) {
      members.set(key, { token: undefined, raw: serializeInnerList([value, new Map()]) });
    } else if (value instanceof Token) {
      members.set(key, { token: value.toString(), raw: value.toString() });
    } else {
      members.set(key, { token: undefined, raw: value === true ? "" : serializeItem([value, new Map()]) });
    }
  }
  return { ok: true, members };
}
