// The request path's record per authority (src/worker/edge/host-memo.ts): whether the edge serves
// it and its policy's host key, judged under the config it was made for, and bounded.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/read-config.ts";
import { hostMemo, hostMemoCount, MAX_HOST_MEMOS } from "../../src/worker/edge/host-memo.ts";

const configOf = (authorities: string) => parseConfig({ ...env, ORIGIN_URL: "", AUTHORITIES: authorities }).config;

describe("hostMemo", () => {
  const shopOnly = configOf("shop.example, *.tenants.example");
  const blogOnly = configOf("blog.example");
  it.each([
    { authority: "https://shop.example", config: shopOnly, served: true, policyHost: "shop.example" },
    { authority: "https://shop.example", config: blogOnly, served: false, policyHost: "shop.example" },
    { authority: "https://blog.example", config: blogOnly, served: true, policyHost: "blog.example" },
    { authority: "https://a.tenants.example", config: shopOnly, served: true, policyHost: "a.tenants.example" },
    { authority: "https://shop.example:8443", config: shopOnly, served: false, policyHost: "shop.example:8443" },
  ])(
    "$authority under one config: served $served, policy of $policyHost",
    ({ authority, config, served, policyHost }) => {
      // Asked twice, each time after the other config: the memo of another config is judged again.
      for (const other of [shopOnly, blogOnly, config]) hostMemo(other, authority);
      expect(hostMemo(config, authority)).toMatchObject({ served, policyHost });
    },
  );

  it("hosts a client invents: at most MAX_HOST_MEMOS kept, each answer still right", () => {
    expect(MAX_HOST_MEMOS).toBe(4_096);
    const named = Array.from({ length: MAX_HOST_MEMOS + 10 }, (_, i) => `https://c${i}.tenants.example`);
    for (const authority of named) expect(hostMemo(shopOnly, authority).served).toBe(true);
    expect(hostMemoCount()).toBeLessThanOrEqual(MAX_HOST_MEMOS);
    expect(hostMemo(shopOnly, "https://c0.tenants.example").served).toBe(true);
    expect(hostMemo(shopOnly, "https://c0.other.example").served).toBe(false);
  });
});
