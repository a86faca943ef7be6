// The charges ledger's bounds (worker/charges/store.ts), on the ChargeLedger object's own SQLite
// storage in workerd, with the bounds shrunk so they can be seen to hold: a replayed charge is
// one row, rows past the retention go, and past the row bound the oldest go first, said.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SqlRunner } from "../../src/worker/activity/store.ts";
import { ChargeStore, type ChargeRow } from "../../src/worker/charges/store.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 27);

function row(id: string, time: number): ChargeRow {
  return {
    id,
    time,
    operator: "OpenAI",
    crawler: "GPTBot",
    signer: "https://chatgpt.com/.well-known/http-message-signatures-directory",
    keyid: "k",
    path: `/paid/${id}`,
    price: "USD 0.01",
    header: "crawler-max-price",
    offered: "USD 0.02",
    base: '"@authority": www.example.com',
    signature: "c2ln",
  };
}

async function withStore(name: string, body: (store: ChargeStore) => void): Promise<void> {
  const stub = env.CHARGES.get(env.CHARGES.idFromName(name));
  await runInDurableObject(stub, (_instance, state) => {
    const sql: SqlRunner = {
      exec: (query, ...bindings) => state.storage.sql.exec(query, ...bindings).toArray() as never,
      transaction: (work) => state.storage.transactionSync(work),
    };
    body(new ChargeStore(sql, { keepDays: 2, maxRows: 3 }));
  });
}

const all = { from: 0, to: T0 + 10 * DAY, operator: undefined, limit: 100 };

describe("the charges ledger's bounds", () => {
  it("a replayed charge (same id) is one row", async () => {
    await withStore("replay", (store) => {
      store.add([row("a", T0)], T0);
      store.add([row("a", T0 + 1000)], T0 + 1000);
      expect(store.read(all).map((r) => [r.id, r.time])).toEqual([["a", T0]]);
    });
  });

  it("rows older than the retention go", async () => {
    await withStore("retention", (store) => {
      store.add([row("old", T0 - 3 * DAY), row("new", T0 - DAY)], T0);
      expect(store.read(all).map((r) => r.id)).toEqual(["new"]);
    });
  });

  it("past the row bound the oldest go first, and it is said", async () => {
    await withStore("bound", (store) => {
      store.add([row("1", T0 + 1), row("2", T0 + 2), row("3", T0 + 3)], T0 + 3);
      expect(store.problems()).toEqual([]);
      store.add([row("4", T0 + 4), row("5", T0 + 5)], T0 + 5);
      expect(store.read(all).map((r) => r.id)).toEqual(["3", "4", "5"]);
      expect(store.problems()).toEqual(["the charges ledger held more than 3 rows: the 2 oldest were dropped"]);
    });
  });

  it("by operator and period", async () => {
    await withStore("query", (store) => {
      store.add([row("x", T0), { ...row("y", T0 + DAY), operator: "Anthropic" }], T0 + DAY);
      expect(store.read({ ...all, operator: "Anthropic" }).map((r) => r.id)).toEqual(["y"]);
      expect(store.read({ ...all, from: T0 + 1, to: T0 + 2 * DAY }).map((r) => r.id)).toEqual(["y"]);
      expect(store.read({ ...all, limit: 1 }).map((r) => r.id)).toEqual(["x"]);
    });
  });
});
