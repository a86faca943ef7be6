// Tenant files the attack sessions built, shared by the tests that replay them.

/** RFC 9309's 500 KiB: what the edge reads of a robots.txt, and what a tenant's file may fill. */
export const TENANT_FILE_LIMIT = 500 * 1024;

/**
 * Attack 12's A12-1 file: after `start`, groups each naming `a` and two of `b`, `c`, `d`, with
 * 6 × `disallow:/*ab`, to 500 KiB (3,764 groups from an empty start). `b` and `c` (each named by
 * all groups but a third) fill the merged-tree bound; `a` is then answered across its groups.
 */
export function acrossGroupsFile(start = ""): string {
  let text = start;
  for (let n = 0; ; n++) {
    const others = ["b", "c", "d"].filter((_, i) => i !== n).map((token) => `user-agent:${token}\n`);
    const group = `user-agent:a\n${others.join("")}${"disallow:/*ab\n".repeat(6)}`;
    if (text.length + group.length > TENANT_FILE_LIMIT) return text;
    text += group;
  }
}
