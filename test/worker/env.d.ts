// Types for `env` and `exports` from "cloudflare:workers" in the Worker tests.
declare namespace Cloudflare {
  interface Env {
    ROBOTS: KVNamespace;
  }
  interface GlobalProps {
    mainModule: typeof import("../../src/worker/index.ts");
  }
}
