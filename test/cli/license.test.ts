// The LICENSE file and package.json name the same licence (issue #15).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

it.each([{ spdx: "MIT", firstLine: "MIT License" }])("package.json $spdx <-> LICENSE", ({ spdx, firstLine }) => {
  const manifest = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { license: string };
  expect(manifest.license).toBe(spdx);
  expect(readFileSync(resolve(ROOT, "LICENSE"), "utf8").split("\n")[0]).toBe(firstLine);
});
