/**
 * The registry: every operator we know, one file each (CONTRIBUTING.md, "A new crawler"). The flat
 * tables every reader uses (tables.ts) are derived from it once, at module load. The order is
 * the order of the crawler table before the move, which is the order the purposes setting
 * writes its groups in.
 */

import type { Operator } from "./operator.ts";
import { google } from "./google.ts";
import { microsoft } from "./microsoft.ts";
import { openai } from "./openai.ts";
import { anthropic } from "./anthropic.ts";
import { NOT_YET_MOVED } from "./not-yet-moved.ts";

export const OPERATORS: readonly Operator[] = [google, microsoft, openai, anthropic, ...NOT_YET_MOVED];
