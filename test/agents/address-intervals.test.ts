// The compiled crawler-only ranges (issue 24): which list holds an address, with mixed lists and
// overlaps of two operators excluded. Two implementations, one suite: the compiled lookup must
// agree with RangeSet (ipaddr.js, agents/verification.ts) on every address tried.
import { describe, expect, it } from "vitest";
import { compileAddressIndex, parseIPv4, parseIPv6, type RangeListInput } from "../../src/agents/address-intervals.ts";
import { RangeSet } from "../../src/agents/verification.ts";
import { random } from "../../bench/random.ts";

const LISTS: RangeListInput[] = [
  { name: "gptbot", crawlerOnly: true, cidrs: ["20.171.206.0/24", "20.171.207.0/24", "2001:db8:10::/48"] },
  { name: "bingbot", crawlerOnly: true, cidrs: ["157.55.39.0/24", "40.77.167.0/25", "2001:db8:20::/48"] },
  // A mixed list overlapping a crawler-only one: its addresses belong to nobody.
  { name: "chatgpt-user", crawlerOnly: false, cidrs: ["20.171.207.128/25", "2001:db8:10:1::/64"] },
  // Two crawler-only lists claiming the same addresses: nobody's either.
  { name: "ccbot", crawlerOnly: true, cidrs: ["40.77.167.64/26", "198.51.100.0/24", "not a cidr", "10.0.0.0/33"] },
];

describe("compileAddressIndex: which crawler-only list holds an address", () => {
  const index = compileAddressIndex(LISTS);
  it.each([
    { address: "20.171.206.0", owner: "gptbot", why: "first address of a /24" },
    { address: "20.171.206.255", owner: "gptbot", why: "last address of a /24" },
    { address: "20.171.207.5", owner: "gptbot", why: "adjacent /24s of one list merge" },
    { address: "20.171.207.127", owner: "gptbot", why: "just below the mixed /25" },
    { address: "20.171.207.128", owner: undefined, why: "also in chatgpt-user (mixed): a person may be there" },
    { address: "20.171.208.0", owner: undefined, why: "just past the list" },
    { address: "20.171.205.255", owner: undefined, why: "just before the list" },
    { address: "157.55.39.77", owner: "bingbot", why: "bingbot" },
    { address: "40.77.167.10", owner: "bingbot", why: "bingbot below the ccbot overlap" },
    { address: "40.77.167.70", owner: undefined, why: "bingbot AND ccbot: no one operator" },
    { address: "198.51.100.9", owner: "ccbot", why: "ccbot alone" },
    { address: "2001:db8:10::1", owner: "gptbot", why: "IPv6 in a /48" },
    { address: "2001:db8:10:ffff:ffff:ffff:ffff:ffff", owner: "gptbot", why: "last IPv6 of the /48" },
    { address: "2001:db8:10:1::9", owner: undefined, why: "IPv6 in the mixed /64" },
    { address: "2001:0db8:0020:0000:0000:0000:0000:0001", owner: "bingbot", why: "uncompressed IPv6" },
    { address: "2001:db8:11::", owner: undefined, why: "IPv6 past the /48" },
    { address: "::ffff:157.55.39.1", owner: "bingbot", why: "IPv4-mapped IPv6 is its IPv4 address" },
    { address: "::ffff:9d37:2701", owner: "bingbot", why: "IPv4-mapped in hex groups" },
    { address: "157.55.39", owner: undefined, why: "three parts: not an address" },
    { address: "157.55.39.256", owner: undefined, why: "a part over 255" },
    { address: "157.55.039.1x", owner: undefined, why: "not digits" },
    { address: "2001:db8:10::1%eth0", owner: undefined, why: "a zone: not a client address" },
    { address: "2001:db8::10::1", owner: undefined, why: "two gaps" },
    { address: "", owner: undefined, why: "empty" },
  ])("$address -> $owner ($why)", ({ address, owner }) => {
    expect(index.lookup(address)).toBe(owner);
  });

  it("counts its intervals and memory", () => {
    // gptbot v4 [206.0-207.127]; bingbot 157.55.39/24, 40.77.167.0-63; ccbot 198.51.100/24;
    // v6: gptbot /48 split around the mixed /64 (2), bingbot /48.
    expect(index.intervals).toBe(7);
    expect(index.bytes).toBe(4 * (4 + 4 + 1) + 3 * (16 + 16 + 1) + 2 * "gptbotbingbotccbot".length);
  });

  it.each([
    { cidrs: ["0.0.0.0/0"], address: "255.255.255.255", owner: "all" },
    { cidrs: ["0.0.0.0/0"], address: "0.0.0.0", owner: "all" },
    { cidrs: ["::/0"], address: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", owner: "all" },
    { cidrs: ["255.255.255.255/32"], address: "255.255.255.255", owner: "all" },
    { cidrs: ["255.255.255.255/32"], address: "255.255.255.254", owner: undefined },
    { cidrs: ["1.2.3.4/32", "1.2.3.5/32"], address: "1.2.3.5", owner: "all" },
    { cidrs: ["10.0.0.0/8", "10.1.0.0/16"], address: "10.1.2.3", owner: "all" },
  ])("the family's edges and nesting: $cidrs holds $address -> $owner", ({ cidrs, address, owner }) => {
    expect(compileAddressIndex([{ name: "all", crawlerOnly: true, cidrs }]).lookup(address)).toBe(owner);
  });

  it("an empty index finds nothing", () => {
    expect(compileAddressIndex([]).lookup("20.171.206.1")).toBeUndefined();
  });
});

describe("address parsing", () => {
  it.each([
    { text: "0.0.0.0", value: 0 },
    { text: "255.255.255.255", value: 4294967295 },
    { text: "1.2.3.4", value: 16909060 },
    { text: "1.2.3.4.5", value: undefined },
    { text: "01.2.3.4", value: undefined }, // a leading zero: octal to ipaddr.js, so no address
    { text: "1.2.3.00", value: undefined },
    { text: "10.20.30.100", value: 169090660 },
    { text: "1..3.4", value: undefined },
    { text: "1.2.3.4 ", value: undefined },
    { text: "1234.2.3.4", value: undefined },
  ])("parseIPv4($text) = $value", ({ text, value }) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each([
    { text: "::", words: [0, 0, 0, 0] },
    { text: "::1", words: [0, 0, 0, 1] },
    { text: "1::", words: [0x10000, 0, 0, 0] },
    { text: "2001:db8::ff00:42:8329", words: [0x20010db8, 0, 0xff00, 0x428329] },
    { text: "::ffff:192.0.2.1", words: [0, 0, 0xffff, 0xc0000201] },
    { text: "1:2:3:4:5:6:7:8", words: [0x10002, 0x30004, 0x50006, 0x70008] },
    { text: "1:2:3:4:5:6:7", words: undefined },
    { text: "1:2:3:4:5:6:7:8:9", words: undefined },
    { text: "1:2:3:4::5:6:7:8", words: undefined },
    { text: "12345::", words: undefined },
    { text: "g::", words: undefined },
    { text: "1.2.3.4::", words: undefined },
  ])("parseIPv6($text)", ({ text, words }) => {
    const out = new Uint32Array(4);
    const ok = parseIPv6(text, out);
    expect(ok ? [...out] : undefined).toEqual(words);
  });
});

describe("agrees with RangeSet (ipaddr.js) on random addresses near and inside the ranges", () => {
  const next = random(24);
  const byte = () => Math.floor(next() * 256);
  const hex = () => Math.floor(next() * 65536).toString(16);
  const lists: RangeListInput[] = ["a", "b", "c"].map((name, i) => ({
    name,
    crawlerOnly: i < 2,
    cidrs: Array.from({ length: 60 }, () =>
      next() < 0.5
        ? `${10 + (byte() % 3)}.${byte() % 4}.${byte()}.0/${20 + Math.floor(next() * 12)}`
        : `2001:db8:${Math.floor(next() * 4)}:${hex()}::/${40 + Math.floor(next() * 40)}`,
    ),
  }));
  const index = compileAddressIndex(lists);
  const sets = new Map(lists.map((list) => [list.name, new RangeSet(list.cidrs)]));
  /** The reference: the one crawler-only list holding it, when no mixed list does. */
  function reference(address: string): string | undefined {
    const holders = lists.filter((list) => sets.get(list.name)?.contains(address));
    const [only] = holders;
    return holders.length === 1 && only?.crawlerOnly ? only.name : undefined;
  }
  const addresses = Array.from({ length: 8000 }, () =>
    next() < 0.5
      ? `${10 + (byte() % 3)}.${byte() % 4}.${byte()}.${byte()}`
      : `2001:db8:${Math.floor(next() * 4)}:${hex()}:${hex()}::${hex()}`,
  );
  it("8000 addresses, the same answers", () => {
    const disagreements = addresses.filter((address) => index.lookup(address) !== reference(address));
    expect(disagreements).toEqual([]);
    // The sample must exercise both answers, or the comparison proves nothing.
    expect(addresses.filter((address) => reference(address) !== undefined).length).toBeGreaterThan(100);
  });
});
