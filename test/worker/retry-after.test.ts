// Google reads Retry-After on 503 and 429 for emergency crawl-rate reductions: every response
// the edge answers with either status is built by one of these, and each states when to retry.
import { describe, expect, it } from "vitest";
import { rateLimitedResponse, signatureReusedResponse, unavailableResponse } from "../../src/worker/responses.ts";

describe("every 503 and 429 the edge sends says when to retry", () => {
  it.each([
    {
      why: "robots.txt unavailable, a pause, a visit window (503)",
      response: unavailableResponse(120, "why", "paused"),
      status: 503,
      retryAfter: "120",
    },
    { why: "Crawl-delay / Request-rate (429)", response: rateLimitedResponse(7, null), status: 429, retryAfter: "7" },
    {
      why: "a reused Web Bot Auth signature (429)",
      response: signatureReusedResponse(1),
      status: 429,
      retryAfter: "1",
    },
  ])("$why", ({ response, status, retryAfter }) => {
    expect(response.status).toBe(status);
    expect(response.headers.get("retry-after")).toBe(retryAfter);
  });
});
