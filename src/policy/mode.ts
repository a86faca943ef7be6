/** How the edge treats a disallowed crawler request (the MODE var, a policy route's mode, USAGE_SIGNALS). */
export const MODES = ["enforce", "report", "off"] as const;

export type Mode = (typeof MODES)[number];
