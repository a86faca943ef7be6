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
import { perplexity } from "./perplexity.ts";
import { mistral } from "./mistral.ts";
import { moonshotAi } from "./moonshot-ai.ts";
import { apple } from "./apple.ts";
import { yandex } from "./yandex.ts";
import { baidu } from "./baidu.ts";
import { duckduckgo } from "./duckduckgo.ts";
import { yahoo } from "./yahoo.ts";
import { huawei } from "./huawei.ts";
import { seznam } from "./seznam.ts";
import { mojeek } from "./mojeek.ts";
import { naver } from "./naver.ts";
import { commonCrawl } from "./common-crawl.ts";
import { bytedance } from "./bytedance.ts";
import { amazon } from "./amazon.ts";
import { meta } from "./meta.ts";
import { diffbot } from "./diffbot.ts";
import { cohere } from "./cohere.ts";
import { youCom } from "./you-com.ts";
import { timpi } from "./timpi.ts";
import { imagesift } from "./imagesift.ts";
import { webzIo } from "./webz-io.ts";
import { x } from "./x.ts";
import { linkedin } from "./linkedin.ts";
import { ahrefs } from "./ahrefs.ts";
import { semrush } from "./semrush.ts";
import { majestic } from "./majestic.ts";
import { moz } from "./moz.ts";
import { internetArchive } from "./internet-archive.ts";
import { qwant } from "./qwant.ts";

export const OPERATORS: readonly Operator[] = [
  google,
  microsoft,
  openai,
  anthropic,
  perplexity,
  mistral,
  moonshotAi,
  apple,
  yandex,
  baidu,
  duckduckgo,
  yahoo,
  huawei,
  seznam,
  mojeek,
  naver,
  commonCrawl,
  bytedance,
  amazon,
  meta,
  diffbot,
  cohere,
  youCom,
  timpi,
  imagesift,
  webzIo,
  x,
  linkedin,
  ahrefs,
  semrush,
  majestic,
  moz,
  internetArchive,
  qwant,
];
