/**
 * WHATWG URL parsing for this folder, typed locally: src/agents type-checks without host
 * types (it must stay pure), yet `URL` exists in every runtime it runs in (workerd, Node).
 */

/** The parts of a parsed URL we read. */
export interface UrlParts {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

const HostUrl = (globalThis as unknown as { URL: new (input: string) => UrlParts }).URL;

/** The parsed URL, or undefined when it is not one. */
export function parseUrl(input: string): UrlParts | undefined {
  try {
    return new HostUrl(input);
  } catch {
    return undefined;
  }
}
