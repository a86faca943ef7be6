// `node scripts/complete-lockfile.js` after any `npm install` that changes package-lock.json.
//
// Why: the registry mirror this project is built against serves only the linux-x64 builds
// of packages that ship per-platform binaries (workerd, oxlint). npm then leaves the other
// platforms' optional packages out of package-lock.json, and `npm ci` refuses the lock file
// as "out of sync". This adds the missing entries as npm itself writes them for a platform
// it cannot install on (version, os, cpu, libc, optional), so `npm ci` accepts the lock file
// and still installs only what fits the machine.
import { readFileSync, writeFileSync } from "node:fs";

type Entry = {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  optionalDependencies?: Record<string, string>;
} & Record<string, unknown>;
const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8")) as { packages: Record<string, Entry> };

const OS: [string, string][] = [
  ["android", "android"],
  ["darwin", "darwin"],
  ["freebsd", "freebsd"],
  ["linux", "linux"],
  ["openharmony", "openharmony"],
  ["win32", "win32"],
  ["windows", "win32"],
];
const CPU: [RegExp, string][] = [
  [/arm64/, "arm64"],
  [/arm/, "arm"],
  [/x64|-64$/, "x64"],
  [/ia32/, "ia32"],
  [/ppc64/, "ppc64"],
  [/riscv64/, "riscv64"],
  [/s390x/, "s390x"],
];

let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `${key ? `${key}/` : ""}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[where] || lock.packages[hoisted]) continue;
    const platform = name.split("/").pop() ?? name;
    const os = OS.find(([word]) => platform.includes(word))?.[1];
    const cpu = CPU.find(([pattern]) => pattern.test(platform))?.[1];
    if (!os || !cpu) continue;
    lock.packages[hoisted] = {
      version,
      ...(entry.dev && { dev: true }),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(platform.includes("musl") && { libc: ["musl"] }),
      ...(platform.includes("gnu") && { libc: ["glibc"] }),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).toSorted(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
