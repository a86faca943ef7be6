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
 * How much of an Authorization header is searched for the token: its first 16 comma-separated
 * parts, each at most 4,096 characters. A header sent twice arrives joined ("Bearer T, Bearer T"),
 * and a Digest header holds about ten auth-params, so 16 covers every real header; the bounds
 * keep what one request can make us hash to 16 × 3 digests of at most 4 KB, whatever it sends
 * (Cloudflare passes headers up to 32 KB). A part past them is not compared: a header built to
 * hide the token there is sent by someone who holds the token and chose to give it away.
 */
const MAX_AUTHORIZATION_PARTS = 16;
const MAX_PART_LENGTH = 4096;

/**
 * Does the request's Authorization carry the token, under any scheme or none? Wider than
 * bearerMatches: a misspelt admin call, a tool that sends the token bare, a header sent twice,
 * or the token as Basic credentials (either half of `user:password`) still carries it. Only
 * requests with an Authorization header pay for the comparison; every comparison is in
 * constant time, and every candidate is compared (no early exit), so timing says nothing of
 * which part came close.
 */
export async function carriesToken(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("authorization")?.trim();
  if (!header) return false;
  const candidates = authorizationParts(header).flatMap(candidatesIn);
  if (candidates.length === 0) return false;
  const expected = await sha256(token);
  const matches = await Promise.all(
    candidates.map(async (given) => crypto.subtle.timingSafeEqual(await sha256(given), expected)),
  );
  return matches.includes(true);
}

/** The header's comma-separated parts, trimmed, within the bounds above. */
function authorizationParts(header: string): string[] {
  return header
    .split(",", MAX_AUTHORIZATION_PARTS)
    .map((part) => part.trim())
    .filter((part) => part !== "" && part.length <= MAX_PART_LENGTH);
}

/** What one part could carry the token as: the part itself, what follows a scheme, Basic's two halves. */
function candidatesIn(part: string): string[] {
  const match = /^([A-Za-z][\w!#$%&'*+.^`|~-]*)[ \t]+(.*)$/.exec(part);
  const scheme = match?.[1]?.toLowerCase();
  const credentials = match?.[2]?.trim() ?? "";
  if (credentials === "") return [part];
  return scheme === "basic" ? [part, credentials, ...basicHalves(credentials)] : [part, credentials];
}

/** `user` and `password` of Basic credentials (RFC 7617: base64 of `user:password`); none if not base64. */
function basicHalves(credentials: string): string[] {
  let decoded: string;
  try {
    const binary = atob(credentials);
    decoded = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return [];
  }
  const colon = decoded.indexOf(":");
  return colon < 0 ? [decoded] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

async function sameSecret(given: string, token: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}
