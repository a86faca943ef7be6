// `robots-edge charges`: the ledger exported through an edge's admin API. A stand-in admin API on
// loopback records what it was asked and answers as GET charges does.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = resolve(import.meta.dirname, "../../bin/robots-edge.js");
const CSV = "time,operator,crawler,signer,keyid,path,price,header,offered,base,signature\r\n";
let server: Server;
let base: string;
const asked: { url: string; authorization: string | undefined; accept: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response) => {
    asked.push({
      url: request.url ?? "",
      authorization: request.headers.authorization,
      accept: request.headers.accept,
    });
    if (request.headers.authorization !== "Bearer right-token") {
      response.writeHead(401, { "content-type": "application/json" });
      response.end('{"error": "unauthorized"}\n');
      return;
    }
    const csv = (request.url ?? "").includes("format=csv");
    response.writeHead(200, { "content-type": csv ? "text/csv" : "application/json" });
    response.end(csv ? CSV : '{"charges": []}\n');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

function run(args: string[], token?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ROBOTS_EDGE_TOKEN: token ?? "" };
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env }, (error, stdout, stderr) => {
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("robots-edge charges <edge URL>", () => {
  it("CSV for a period and an operator, the token from ROBOTS_EDGE_TOKEN", async () => {
    asked.length = 0;
    const result = await run(
      ["charges", base, "--from", "2026-11-01", "--to", "2026-12-01", "--operator", "OpenAI", "--csv"],
      "right-token",
    );
    expect(JSON.stringify(result)).toBe(JSON.stringify({ code: 0, stdout: CSV, stderr: "" }));
    expect(asked).toEqual([
      {
        url: "/__robots/charges?from=2026-11-01&to=2026-12-01&operator=OpenAI&format=csv",
        authorization: "Bearer right-token",
        accept: "text/csv",
      },
    ]);
  });

  it("JSON by default, under another admin prefix", async () => {
    asked.length = 0;
    const result = await run(["charges", base, "--prefix", "/ops/"], "right-token");
    expect(result).toEqual({ code: 0, stdout: '{"charges": []}\n', stderr: "" });
    expect(asked.map((a) => a.url)).toEqual(["/ops/charges"]);
  });

  it.each([
    {
      why: "no token",
      args: ["charges", "BASE"],
      token: undefined,
      stderr:
        "robots-edge charges: set ROBOTS_EDGE_TOKEN to the edge's ADMIN_TOKEN (never an argument: others could read it)\n",
    },
    {
      why: "a wrong token",
      args: ["charges", "BASE"],
      token: "wrong",
      stderr: 'robots-edge charges: /__robots/charges answered 401: {"error": "unauthorized"}\n',
    },
    {
      why: "no URL",
      args: ["charges"],
      token: "right-token",
      stderr:
        "robots-edge charges: give the edge's URL: robots-edge charges https://www.example.com [--from 2026-11-01] [--csv]\n",
    },
    {
      why: "not a URL",
      args: ["charges", "example"],
      token: "right-token",
      stderr: 'robots-edge charges: "example" is not a URL: give the edge\'s address, https://www.example.com\n',
    },
  ])("$why: exit 2, what to do on stderr", async ({ args, token, stderr }) => {
    const result = await run(
      args.map((arg) => (arg === "BASE" ? base : arg)),
      token,
    );
    expect(result).toEqual({ code: 2, stdout: "", stderr });
  });
});
