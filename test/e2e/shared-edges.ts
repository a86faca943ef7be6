// `wrangler dev` started once per configuration in a file, for describes that need the same
// vars: a start costs seconds of CPU, and a table of configurations used to pay one per
// describe. The first `edge(options)` starts it; later calls with equal options get the running
// edge. A describe that shares an edge undoes what it changed (a pause, the origin's file)
// in its afterAll, and sets what it reads (POST refresh) in its beforeAll. `stop()` in the
// file's afterAll stops them all.
import { startEdge, type EdgeOptions, type EdgeProcess } from "../../scripts/edge-process.ts";

export interface SharedEdges {
  /** The running edge for these options, started on first use. */
  edge(options: EdgeOptions): Promise<EdgeProcess>;
  /** Stops every edge started here. */
  stop(): Promise<void>;
}

export function sharedEdges(): SharedEdges {
  const started = new Map<string, Promise<EdgeProcess>>();
  return {
    edge(options) {
      // Same vars, KV and config: the same edge (the vars are written in one order per file).
      const key = JSON.stringify([options.vars, options.kv ?? {}, options.config ?? null, options.persistTo ?? null]);
      let edge = started.get(key);
      if (edge === undefined) {
        edge = startEdge(options);
        started.set(key, edge);
      }
      return edge;
    },
    async stop() {
      const edges = [...started.values()];
      started.clear();
      for (const edge of edges) await (await edge.catch(() => undefined))?.stop();
    },
  };
}
