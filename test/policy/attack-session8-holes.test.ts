// Session 8 attack review (outside reviewer): HOLES found in today's features. Each test FAILS
// on main as of this review and states the behaviour the project's rules ask for; the lead
// decides the fix. Attacks that hold are in attack-session8.test.ts.
import { describe, expect, it } from "vitest";
import { settlePrice } from "../../src/policy/terms-price.ts";

describe("HOLE: a charge accepts a signature that does not name the request it pays for", () => {
  // The commitment covers @authority and the price only: it names no path or query. The reuse
  // memory keys an unnonced signature by its bytes AND the target, so the same headers sent to
  // /paid/b, /paid/a?x=2, … are new uses: each is served and charged (a ledger row whose proof
  // says nothing of the page). Anyone who sees one signed request (an origin log, a proxy) gets
  // every priced page for the signature's window, billed to the signer.
  it.each([
    [["@authority", "crawler-max-price", "signature-agent"], 400],
    [["@authority", "@path", "crawler-max-price", "signature-agent"], 400],
    [["@authority", "@path", "@query", "crawler-max-price", "signature-agent"], "settled"],
    [["@target-uri", "crawler-max-price", "signature-agent"], "settled"],
  ])("covered %j -> %s", (covered, expected) => {
    const settlement = settlePrice(
      { currency: "USD", micros: 10_000 },
      { exact: null, max: "USD 1" },
      {
        status: "verified",
        signer: "https://agent.test",
        operator: "https://agent.test",
        commitment: { keyid: "k", covered, base: "…", signature: "c2ln" },
      },
    );
    expect(settlement.settled ? "settled" : settlement.status).toBe(expected);
  });
});
