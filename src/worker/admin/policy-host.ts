/**
 * The admin API's `?host=` parameter (docs/operating.md "Policies per host"): a host name as
 * AUTHORITIES spells it, read in its one canonical spelling (policy/host-names.ts), and only a
 * host the edge serves. Absent: the default policy (policy routes) or the request's own
 * authority (the others), as before hosts.
 */

import { canonicalHostName, unservedHostProblem } from "../../policy/host-names.ts";
import { adminError, type AdminContext } from "./context.ts";

export type HostParam =
  { readonly ok: true; readonly host: string | null } | { readonly ok: false; readonly response: Response };

/** `?host=` as a policy key (exact or `*.`): null when absent, else canonical and served, or the error. */
export function policyHostParam(admin: AdminContext): HostParam {
  const given = admin.url.searchParams.get("host");
  if (given === null) return { ok: true, host: null };
  const host = canonicalHostName(given);
  if (!host.ok) return { ok: false, response: adminError(400, host.problems[0] ?? "bad host", host.problems) };
  const unserved = unservedHostProblem(host.value, {
    proxy: admin.config.originUrl !== undefined,
    authorities: admin.config.authorities,
  });
  if (unserved) return { ok: false, response: adminError(unserved.status, unserved.problem) };
  return { ok: true, host: host.value };
}

/**
 * For the routes that act on one site (explain, test, robots, replay, activity, purposes
 * preview, status): `?host=h` stands for the origin `<scheme of this call>://h`, and the
 * context is that origin's. A pattern is refused: it names many sites, and these need one.
 * An `origin=` or an absolute explain `url=` naming another host is a 400, never a silent choice.
 */
export function withHostOrigin(
  admin: AdminContext,
): { ok: true; admin: AdminContext } | { ok: false; response: Response } {
  const param = policyHostParam(admin);
  if (!param.ok) return param;
  if (param.host === null) return { ok: true, admin };
  if (param.host.startsWith("*.")) {
    return {
      ok: false,
      response: adminError(
        400,
        `host=${param.host} is a pattern: give one host it covers (its traffic and robots.txt are each host's own)`,
      ),
    };
  }
  const origin = `${admin.url.protocol}//${param.host}`;
  const url = new URL(admin.url);
  for (const name of ["origin", "url"]) {
    const value = url.searchParams.get(name);
    const other = value !== null && URL.canParse(value) ? canonicalHostName(new URL(value).host) : undefined;
    if (other?.ok && other.value !== param.host) {
      return {
        ok: false,
        response: adminError(400, `${name}= names ${other.value}, host= names ${param.host}: give one`),
      };
    }
  }
  if (!url.searchParams.has("origin")) url.searchParams.set("origin", origin);
  return { ok: true, admin: { ...admin, url, authority: origin } };
}
