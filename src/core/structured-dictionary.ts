/**
 * RFC 9651 §4.2.2 (Structured Field Values): parse a Dictionary, as AIPREF's preference
 * statements are written (draft-ietf-aipref-vocab-07 §6). Strict: any deviation from the
 * grammar fails the whole dictionary, which the vocabulary turns into "every preference
 * unknown" (vocab §6.5.1). The input is the text after the path of a `Content-Usage` line.
 *
 * Why the whole grammar and not only tokens: the vocabulary ignores unknown keys and any
 * value that is not a Token, but the dictionary must still parse. A statement such as
 * `train-ai=n, note="ok"` or `train-ai=n;since=@1735689600` is valid, and a parser that knew
 * only tokens would throw the `train-ai=n` away with it. So every bare item type is
 * validated (§4.2.3.1–§4.2.10); only Token values are kept, since nothing else can carry a
 * preference. Parameters are validated and dropped (vocab §6.5.2). No dependency: core has
 * none, and this is one small loop per type.
 * Cost: one pass over the input, O(length); no regular expressions, no recursion beyond
 * one level of inner list.
 */

/** One dictionary member: the Token value, or undefined for any other value type. */
export interface DictionaryMember {
  readonly token: string | undefined;
  /** The value as written (empty for a bare key, which means Boolean true). */
  readonly raw: string;
}

export type DictionaryReading =
  | { readonly ok: true; readonly members: ReadonlyMap<string, DictionaryMember> }
  | { readonly ok: false; readonly error: string };

class Failure extends Error {}

/** Parse an RFC 9651 Dictionary; a duplicate key keeps its last value (§4.2.2). */
export function parseDictionary(input: string): DictionaryReading {
  try {
    return { ok: true, members: new DictionaryParser(input).dictionary() };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.message };
    throw error;
  }
}

const DIGIT = /[0-9]/;
const ALPHA = /[A-Za-z]/;
const LCALPHA = /[a-z]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /[A-Za-z0-9+/=]/;
const LOWER_HEX = /[0-9a-f]/;

class DictionaryParser {
  private position = 0;
  private readonly text: string;

  constructor(input: string) {
    // §4.2: leading and trailing SP are discarded before parsing.
    this.text = input.replace(/^ +| +$/g, "");
  }

  dictionary(): Map<string, DictionaryMember> {
    const members = new Map<string, DictionaryMember>();
    while (!this.atEnd()) {
      const key = this.key();
      const start = this.position;
      let token: string | undefined;
      if (this.peek() === "=") {
        this.position++;
        if (this.peek() === "(") this.innerList();
        else token = this.item();
      } else {
        this.parameters();
      }
      // A repeated key overwrites the earlier value in place (§4.2.2): the last value wins.
      members.set(key, { token, raw: this.text.slice(start, this.position).replace(/^=/, "") });
      this.skipOws();
      if (this.atEnd()) return members;
      if (this.next() !== ",") this.fail('expected "," between members');
      this.skipOws();
      if (this.atEnd()) this.fail('a trailing "," ends the dictionary');
    }
    return members;
  }

  /** §4.2.1.2: an inner list `(a b);p`, validated, value dropped. */
  private innerList(): void {
    this.position++; // "("
    while (!this.atEnd()) {
      this.skipSp();
      if (this.peek() === ")") {
        this.position++;
        this.parameters();
        return;
      }
      this.item();
      const after = this.peek();
      if (after !== " " && after !== ")") this.fail('expected a space or ")" in an inner list');
    }
    this.fail('an inner list is not closed with ")"');
  }

  /** §4.2.3: a bare item and its parameters; returns the Token text when it is a Token. */
  private item(): string | undefined {
    const token = this.bareItem();
    this.parameters();
    return token;
  }

  /** §4.2.3.2: `;key[=value]`, validated, dropped. */
  private parameters(): void {
    while (this.peek() === ";") {
      this.position++;
      this.skipSp();
      this.key();
      if (this.peek() === "=") {
        this.position++;
        this.bareItem();
      }
    }
  }

  /** §4.2.3.3: lcalpha / "*", then lcalpha / DIGIT / "_" / "-" / "." / "*". Keys are case-sensitive. */
  private key(): string {
    const start = this.position;
    const first = this.peek();
    if (!LCALPHA.test(first) && first !== "*") {
      this.fail(`a key must start with a lower-case letter or "*", found ${describe(first)}`);
    }
    this.position++;
    while (KEY_CHAR.test(this.peek())) this.position++;
    return this.text.slice(start, this.position);
  }

  /** §4.2.3.1; returns the Token text for a Token, undefined for every other type. */
  private bareItem(): string | undefined {
    const first = this.peek();
    if (ALPHA.test(first) || first === "*") return this.token();
    if (first === "-" || DIGIT.test(first)) this.number();
    else if (first === '"') this.string();
    else if (first === ":") this.byteSequence();
    else if (first === "?") this.boolean();
    else if (first === "@") this.date();
    else if (first === "%") this.displayString();
    else this.fail(`expected a value, found ${describe(first)}`);
    return undefined;
  }

  /** §4.2.4: Integer (at most 15 digits) or Decimal (12 digits "." 1–3 digits). */
  private number(): "integer" | "decimal" {
    if (this.peek() === "-") this.position++;
    if (!DIGIT.test(this.peek())) this.fail("expected a digit");
    let digits = 0;
    let fraction = -1;
    while (DIGIT.test(this.peek()) || (this.peek() === "." && fraction < 0)) {
      if (this.next() === ".") {
        if (digits > 12) this.fail("a decimal has at most 12 integer digits");
        fraction = 0;
      } else if (fraction >= 0) {
        fraction++;
      } else {
        digits++;
      }
    }
    if (fraction < 0 && digits > 15) this.fail("an integer has at most 15 digits");
    if (fraction === 0 || fraction > 3) this.fail("a decimal has 1 to 3 digits after the point");
    return fraction < 0 ? "integer" : "decimal";
  }

  /** §4.2.5: `"…"`, printable ASCII, only `\"` and `\\` escapes. */
  private string(): void {
    this.position++;
    while (!this.atEnd()) {
      const char = this.next();
      if (char === '"') return;
      if (char === "\\") {
        const escaped = this.next();
        if (escaped !== '"' && escaped !== "\\") this.fail('only \\" and \\\\ may be escaped in a string');
      } else if (!isPrintableAscii(char)) {
        this.fail(`${describe(char)} is not allowed in a string`);
      }
    }
    this.fail("a string is not closed");
  }

  /** §4.2.6: Token: ALPHA / "*", then tchar / ":" / "/". */
  private token(): string {
    const start = this.position;
    this.position++;
    while (TCHAR.test(this.peek())) this.position++;
    return this.text.slice(start, this.position);
  }

  /** §4.2.7: `:base64:`. */
  private byteSequence(): void {
    this.position++;
    while (BASE64.test(this.peek())) this.position++;
    if (this.next() !== ":") this.fail('a byte sequence is not closed with ":"');
  }

  /** §4.2.8: `?0` or `?1`. */
  private boolean(): void {
    this.position++;
    const value = this.next();
    if (value !== "0" && value !== "1") this.fail('a boolean is "?0" or "?1"');
  }

  /** §4.2.9: `@` Integer. */
  private date(): void {
    this.position++;
    if (this.number() !== "integer") this.fail("a date is an integer");
  }

  /** §4.2.10: `%"…"`, lower-case %xx escapes decoding to UTF-8. */
  private displayString(): void {
    this.position++;
    if (this.next() !== '"') this.fail('a display string starts with %"');
    const bytes: number[] = [];
    while (!this.atEnd()) {
      const char = this.next();
      if (char === '"') {
        if (!validUtf8(bytes)) this.fail("a display string is not valid UTF-8");
        return;
      }
      if (char === "%") {
        const hex = this.text.slice(this.position, this.position + 2);
        if (hex.length !== 2 || !LOWER_HEX.test(hex[0] ?? "") || !LOWER_HEX.test(hex[1] ?? "")) {
          this.fail("a display string escape is % and two lower-case hex digits");
        }
        bytes.push(Number.parseInt(hex, 16));
        this.position += 2;
      } else if (isPrintableAscii(char)) {
        bytes.push(char.charCodeAt(0));
      } else {
        this.fail(`${describe(char)} is not allowed in a display string`);
      }
    }
    this.fail("a display string is not closed");
  }

  private skipOws(): void {
    while (this.peek() === " " || this.peek() === "\t") this.position++;
  }

  private skipSp(): void {
    while (this.peek() === " ") this.position++;
  }

  private peek(): string {
    return this.text[this.position] ?? "";
  }

  private next(): string {
    return this.text[this.position++] ?? "";
  }

  private atEnd(): boolean {
    return this.position >= this.text.length;
  }

  private fail(reason: string): never {
    throw new Failure(`${reason} at character ${this.position + 1}`);
  }
}

function isPrintableAscii(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e;
}

function describe(char: string): string {
  return char === "" ? "the end" : JSON.stringify(char);
}

function validUtf8(bytes: readonly number[]): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(new Uint8Array(bytes));
    return true;
  } catch {
    return false;
  }
}
