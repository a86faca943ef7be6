/**
 * Every admin request body is read here, never further than its route's bound: a
 * Content-Length over the bound is refused before reading, and a body without one (chunked)
 * is read as a stream and cancelled as soon as it passes the bound, so no admin call makes the
 * isolate hold more than the bound. The admin API needs the token; a leaked token or a runaway
 * script still must not cost the isolate its memory.
 */

/** A body read as UTF-8 text, or why not: 413 past the bound, 400 for bytes that are not UTF-8. */
export type BodyText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly status: 400 | 413; readonly error: string };

/** A body read as JSON: its value, or undefined when the body is not JSON (callers say what they wanted). */
export type BodyJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly error: string };

/** The request body as UTF-8 text (a leading BOM dropped), read no further than `max` bytes. */
export async function readBodyText(request: Request, max: number): Promise<BodyText> {
  const tooLarge = { ok: false, status: 413, error: `the body must be at most ${max} bytes` } as const;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > max) return tooLarge;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > max) {
        await reader.cancel();
        return tooLarge;
      }
      chunks.push(read.value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    // A leading BOM (some editors write one) is not part of the text.
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, status: 400, error: "the body must be UTF-8 text" };
  }
}

/** The request body parsed as JSON, read no further than `max` bytes; value undefined when it is not JSON. */
export async function readBodyJson(request: Request, max: number): Promise<BodyJson> {
  const body = await readBodyText(request, max);
  if (!body.ok) return body;
  try {
    return { ok: true, value: JSON.parse(body.text) as unknown };
  } catch {
    return { ok: true, value: undefined };
  }
}
