// The competitor's side of bench/cli.bench.ts (plain JavaScript, so it pays no type stripping): `robots-edge check FILE TOKEN` done with
// robots-parser in its own process. Written as a careful user would: stdin read whole, one
// write for all answers. Prints "allowed" or "disallowed" per non-empty line.
import { readFileSync } from "node:fs";
import robotsParser from "robots-parser";

const [file = "", token = ""] = process.argv.slice(2);
const robots = robotsParser("https://example.com/robots.txt", readFileSync(file, "utf8"));
const lines = readFileSync(0, "utf8").split("\n");
let output = "";
for (const line of lines) {
  const url = line.trim();
  if (url === "") continue;
  output += robots.isAllowed(url, token) === false ? "disallowed\n" : "allowed\n";
}
process.stdout.write(output);
