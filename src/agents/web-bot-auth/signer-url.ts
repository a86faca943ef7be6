/**
 * A signer's identifier: the URL of the JWK Set its `Signature-Agent` names
 * (draft-ietf-webbotauth-httpsig-protocol-01, "Signature-Agent" and "Key Distribution and Discovery"). Since -01 every member value is a
 * direct JWK Set URL; a bare origin (what agents still send, and what -00 and the earlier
 * drafts meant) stands for its well-known directory, the one URL that also binds a domain.
 *
 * The identifier is the URL the verifier fetches, query and fragment dropped (so one key set
 * cannot be minted into many identifiers), normalised as RFC 3986 §6.2.2-6.2.3 say (WHATWG
 * parsing lowercases scheme and host, drops the default port and resolves dot-segments; we
 * also decode escaped unreserved characters and uppercase the remaining escapes).
 */

import { parseUrl } from "./url.ts";

const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The identifier a Signature-Agent value (or a SIGNATURE_AGENTS key) names, or why it names
 * none. https only; http is accepted for loopback hosts alone (local runs and tests: such a
 * URL is trusted only when the operator lists it, and nothing else on loopback is fetched).
 */
export function signerUrlOf(value: string): { readonly url: string } | { readonly problem: string } {
  const url = parseUrl(value);
  if (url === undefined) return { problem: `${JSON.stringify(value)} is not an absolute URL` };
  if (url.username !== "" || url.password !== "") return { problem: "a URL with credentials" };
  const loopback = LOOPBACK_HOSTS.test(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    return { problem: "not https (http only for a loopback host)" };
  }
  const path = url.pathname === "/" || url.pathname === "" ? DIRECTORY_PATH : normalisedEscapes(url.pathname);
  return { url: url.origin + path };
}

/** True for a URL on localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackUrl(value: string): boolean {
  return LOOPBACK_HOSTS.test(parseUrl(value)?.hostname ?? "");
}

function normalisedEscapes(path: string): string {
  return path.replace(/%[0-9A-Fa-f]{2}/g, (escape) => {
    const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape.toUpperCase();
  });
}
