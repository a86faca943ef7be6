// Which authorities route mode serves (robots/authorities.ts): AUTHORITIES read once into exact
// hosts and `*.` suffixes, every spelling of a Host judged as the one authority, and the answers
// kept per spelling within a bound.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import { isServedAuthority, isServedByPatternOnly } from "../../src/worker/robots/authorities.ts";

const { config } = parseConfig({
  AUTHORITIES: "shop.example, blog.example., *.tenants.example, *.ports.example:8443, www.x.example:8080",
});

describe("isServedAuthority, isServedByPatternOnly", () => {
  it.each([
    // authority as a request names it, served, only through a pattern
    ["https://shop.example", true, false],
    ["http://shop.example", true, false],
    ["https://shop.example:443", true, false],
    ["https://shop.example.", true, false],
    ["https://SHOP.example", true, false],
    ["https://blog.example", true, false],
    ["https://shop.example:8443", false, false],
    ["https://evilshop.example", false, false],
    ["https://shop.example.evil.test", false, false],
    ["https://a.tenants.example", true, true],
    ["https://a.b.tenants.example", true, true],
    ["https://a.tenants.example..", true, true],
    ["https://tenants.example", false, false],
    ["https://eviltenants.example", false, false],
    ["https://a.tenants.example:8443", false, false],
    ["https://a.ports.example:8443", true, true],
    ["https://a.ports.example", false, false],
    ["https://www.x.example:8080", true, false],
    ["https://www.x.example", false, false],
    ["not a url", false, false],
  ])("%s: served %s, through a pattern only %s", (authority, served, patternOnly) => {
    expect(isServedAuthority(config, authority)).toBe(served);
    // Asked again: the kept answer is the same.
    expect(isServedAuthority(config, authority)).toBe(served);
    expect(isServedByPatternOnly(config, authority)).toBe(patternOnly);
  });

  it("5,000 invented subdomains, then the listed hosts: every answer right past the kept answers' bound", () => {
    for (let n = 0; n < 5_000; n++) expect(isServedAuthority(config, `https://c${n}.tenants.example`)).toBe(true);
    for (let n = 0; n < 5_000; n++) expect(isServedAuthority(config, `https://c${n}.evil.test`)).toBe(false);
    expect(isServedAuthority(config, "https://shop.example")).toBe(true);
    expect(isServedAuthority(config, "https://c1.tenants.example")).toBe(true);
    expect(isServedAuthority(config, "https://c1.evil.test")).toBe(false);
  });

  it("proxy mode serves ORIGIN_URL's authority only; route mode without AUTHORITIES serves any", () => {
    const proxy = parseConfig({ ORIGIN_URL: "https://origin.example" }).config;
    expect(isServedAuthority(proxy, "https://origin.example")).toBe(true);
    expect(isServedAuthority(proxy, "https://shop.example")).toBe(false);
    const open = parseConfig({}).config;
    expect(isServedAuthority(open, "https://anything.example")).toBe(true);
    expect(isServedByPatternOnly(open, "https://anything.example")).toBe(false);
  });
});
