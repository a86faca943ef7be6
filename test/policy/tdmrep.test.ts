// /.well-known/tdmrep.json from the purposes, and the lint against an origin's own file
// (src/policy/tdmrep.ts). Expectations written out.
import { describe, expect, it } from "vitest";
import { readPurposes } from "../../src/policy/purposes.ts";
import { tdmrepDisagreements, tdmrepRules } from "../../src/policy/tdmrep.ts";

function purposes(value: unknown) {
  const problems: string[] = [];
  const read = readPurposes(value, "purposes", problems);
  expect(problems).toEqual([]);
  return read;
}

const SITE = purposes([
  { path: "/", "search-engine": "allow", "ai-training": "allow" },
  { path: "/members/", "ai-training": "block" },
  { path: "/members/pro/", "ai-training": "block" },
  { path: "/archive/", "ai-training": "block", "ai-search": "block" },
  { path: "/news/", "ai-search": "block" },
]);

describe("the generated tdmrep.json", () => {
  it("reserves each outermost training-blocked prefix, with the policy URL", () => {
    expect(tdmrepRules(SITE, "https://www.example.com/tdm.json")).toEqual([
      { location: "/archive/*", "tdm-reservation": 1, "tdm-policy": "https://www.example.com/tdm.json" },
      { location: "/members/*", "tdm-reservation": 1, "tdm-policy": "https://www.example.com/tdm.json" },
    ]);
  });
  it("without a policy URL, and with nothing reserved", () => {
    expect(tdmrepRules(SITE, undefined)).toEqual([
      { location: "/archive/*", "tdm-reservation": 1 },
      { location: "/members/*", "tdm-reservation": 1 },
    ]);
    expect(tdmrepRules(purposes([{ path: "/", "ai-training": "allow" }]), undefined)).toEqual([]);
  });
});

describe("the lint: the origin's own file against the purposes", () => {
  const rows: [string, string[]][] = [
    [
      JSON.stringify([
        { location: "/archive/*", "tdm-reservation": 1 },
        { location: "/members/", "tdm-reservation": 1 },
      ]),
      [],
    ],
    [
      JSON.stringify([{ location: "/archive/*", "tdm-reservation": 1 }]),
      [
        "the purposes block ai-training under /members/, but the origin's tdmrep.json does not reserve it; its file is the one served",
      ],
    ],
    [
      JSON.stringify([
        { location: "/", "tdm-reservation": 0 },
        { location: "/blog/*", "tdm-reservation": 1 },
      ]),
      [
        'the purposes block ai-training under /archive/, but the origin\'s tdmrep.json says "tdm-reservation": 0 for /*; its file is the one served',
        'the purposes block ai-training under /members/, but the origin\'s tdmrep.json says "tdm-reservation": 0 for /*; its file is the one served',
        "the origin's tdmrep.json reserves /blog/*, where the purposes do not block ai-training",
      ],
    ],
    ["<html>", ["the origin's /.well-known/tdmrep.json is not JSON; TDM agents may ignore it"]],
    ['{"location": "/"}', ["the origin's /.well-known/tdmrep.json is not a JSON array of rules"]],
  ];
  it.each(rows)("%s", (origin, expected) => {
    expect(tdmrepDisagreements(origin, SITE)).toEqual(expected);
  });
});
