/**
 * The admin token, compared in constant time (SHA-256 of both sides, then timingSafeEqual, so
 * lengths leak nothing). The admin router asks whether a call is authorised; forward.ts whether
 * a request carries the token at all, so that the operator's secret never reaches the origin.
 */

/** `Authorization: Bearer <token>`, the scheme in any case (RFC 9110 §11.1). */
export async function bearerMatches(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("authorization") ?? "";
  const given = /^bearer[ \t]+(.*)$/i.exec(header)?.[1]?.trim() ?? "";
  return given !== "" && (await sameSecret(given, token));
}

/**
 * Does the request's Authorization carry the token, under any scheme or none? Wider than
 * bearerMatches: a misspelt admin call, or a tool that sends the token bare, still carries it.
 * Only requests with an Authorization header pay for the comparison.
 */
export async function carriesToken(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("authorization")?.trim();
  if (!header) return false;
  const credentials = /^[A-Za-z][\w!#$%&'*+.^`|~-]*[ \t]+(.*)$/.exec(header)?.[1]?.trim();
  const [whole, after] = await Promise.all([
    sameSecret(header, token),
    credentials ? sameSecret(credentials, token) : Promise.resolve(false),
  ]);
  return whole || after;
}

async function sameSecret(given: string, token: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}
