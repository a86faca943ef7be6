/** How the edge treats a disallowed crawler request (the MODE var). Kept apart from config.ts so pure code can use it. */
export type Mode = "enforce" | "report" | "off";
