// The demo site as data: its robots.txt and its pages. The demo origin (demo-origin.ts) serves
// them; the corpus sweep (test/corpus-sweep.ts) judges them, in Node and in workerd alike, so this
// file imports nothing.

/**
 * The demo's robots.txt. Its Sitemap line names the site as visitors reach it (a Sitemap URL is
 * absolute, RFC 9309 §2.4 / sitemaps.org): under `npm run dev` the edge's address with its port,
 * passed in by scripts/dev.ts; the tests that start the origin bare get DEMO_ROBOTS, which
 * names no port.
 */
export function demoRobots(siteUrl = "http://127.0.0.1"): string {
  return DEMO_ROBOTS_TEMPLATE.replace("{site}", siteUrl);
}

const DEMO_ROBOTS_TEMPLATE = `# robots-edge demo origin
User-agent: *
Disallow: /private/
Allow: /private/press-kit/
Disallow: /search
Disallow: /café/secret/
Disallow: /*.pdf$

User-agent: GPTBot
User-agent: ClaudeBot
User-agent: CCBot
Disallow: /

Sitemap: {site}/sitemap.xml
`;

export const DEMO_ROBOTS = demoRobots();

const link = (href: string) => `<a href="${href}">${href}</a>`;

/** The site: every page links onward, so a recursive crawler finds all of it. */
export const PAGES: Readonly<Record<string, string>> = {
  "/": ["/blog/", "/docs/", "/private/", "/search?q=shoes", "/café/menu", "/files/report.pdf", "/Private/notes"]
    .map(link)
    .join(" "),
  "/blog/": [link("/blog/hello-world"), link("/blog/second-post")].join(" "),
  "/blog/hello-world": `Hello, world. ${link("/blog/")}`,
  "/blog/second-post": `Second post. ${link("/private/press-kit/")}`,
  "/docs/": link("/docs/guide/"),
  "/docs/guide/": [link("/docs/guide/install"), link("/docs/guide/configure")].join(" "),
  "/docs/guide/install": "Install.",
  "/docs/guide/configure": "Configure.",
  "/private/": [link("/private/report"), link("/private/press-kit/")].join(" "),
  "/private/report": "Private report.",
  "/private/press-kit/": "Press kit.",
  "/search": "Search results.",
  "/café/menu": `Menu. ${link("/café/secret/recipe")}`,
  "/café/secret/recipe": "Secret recipe.",
  "/files/report.pdf": "%PDF-1.4 demo",
  "/Private/notes": "Notes under a capitalised path.",
};
