// The RateLimit fields as serialized (policy/rate-limit-headers.ts): bounded whoever built the
// statement, at most MAX_STATED_POLICIES (5) items and MAX_FIELD_BYTES (1,024) a field.
import { describe, expect, it } from "vitest";
import { rateLimitFields, type RateStatement } from "../../src/policy/rate-limit-headers.ts";

const policy = (name: string, quota: number, windowSeconds: number) => ({ name, quota, windowSeconds });

describe("rateLimitFields: bounded", () => {
  it.each([
    {
      why: "seven policies, all exhausted: the first five, in both fields",
      statement: {
        policies: Array.from({ length: 7 }, (_, i) => policy(`p${i + 1}`, i + 1, 60)),
        exhausted: Array.from({ length: 7 }, (_, i) => ({ name: `p${i + 1}`, reset: 30 })),
      },
      fields: [
        {
          name: "ratelimit-policy",
          value: '"p1";q=1;w=60, "p2";q=2;w=60, "p3";q=3;w=60, "p4";q=4;w=60, "p5";q=5;w=60',
        },
        { name: "ratelimit", value: '"p1";r=0;t=30, "p2";r=0;t=30, "p3";r=0;t=30, "p4";r=0;t=30, "p5";r=0;t=30' },
      ],
    },
    {
      why: "a state for a policy left unstated is left out too",
      statement: {
        policies: Array.from({ length: 6 }, (_, i) => policy(`p${i + 1}`, 1, 10)),
        exhausted: [{ name: "p6", reset: 10 }],
      },
      fields: [
        {
          name: "ratelimit-policy",
          value: '"p1";q=1;w=10, "p2";q=1;w=10, "p3";q=1;w=10, "p4";q=1;w=10, "p5";q=1;w=10',
        },
      ],
    },
    {
      why: "items past 1,024 bytes: those that fit (two of 492 bytes)",
      statement: {
        policies: ["a", "b", "c"].map((letter) => policy(letter.repeat(480), 1, 10)),
        exhausted: [],
      },
      fields: [{ name: "ratelimit-policy", value: `"${"a".repeat(480)}";q=1;w=10, "${"b".repeat(480)}";q=1;w=10` }],
    },
  ] satisfies { why: string; statement: RateStatement; fields: unknown }[])("$why", ({ statement, fields }) => {
    expect(rateLimitFields(statement)).toEqual(fields);
  });
});
