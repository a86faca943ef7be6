/**
 * A bound on the matching work of one decision: no client can buy our CPU.
 *
 * Each tree bounds its own wildcard work (rule-tree.ts ONE_BY_ONE_LIMIT), but a decision may ask
 * many trees (a set of groups answered across its groups' own trees, match.ts), and one pass of
 * the segment automaton costs every wildcard rule met: 3,764 groups of 6 `/*ab` rules on an 8 KB
 * path cost 1-2 s a decision, one group of 32,082 `/*a<n>` rules 77-100 ms (attack 12, A12-1 and
 * A12-6). So the trees and the automaton count their steps against one budget per `decide` call,
 * and past it the decision is not answered: the core throws `MatchingTooCostly`.
 *
 * Why throw rather than answer either way: the edge could not check the path, so it must not
 * guess. Allowing would let a file shaped to be costly open every path to crawlers; refusing
 * would refuse what the file may allow. The exception reaches the edge's one fail-safe
 * (worker/edge/own-fault.ts): a person never runs the matcher and is forwarded, a crawler gets
 * 503 + Retry-After, the operator sees the fault, with this message, in GET status.
 *
 * The unit, a step, is about the CPU of one character compared in `matchesAfterHead`
 * (String#indexOf, ~5-7 ns in Node 24). Other work is weighed in those units from measurement
 * (bench/bounds.bench.ts): a character walked in a tree 1, a character read by the automaton
 * AUTOMATON_CHARACTER_STEPS, a wildcard rule entered into an automaton pass CANDIDATE_STEPS.
 */

/**
 * Steps one `decide` call may take: ~2 ms of CPU at worst in Node 24 (~4 ms on a loaded machine) (bench/bounds.bench.ts,
 * "matching work of one decision"). An ordinary decision takes a few hundred. Over every file
 * of test/fixtures/corpus, every token it names, with its own rules' patterns as paths, the most
 * is 28,632 (0098.txt); on 8 KB paths 159,672 (0098.txt, an automaton pass), about half: a
 * single tree tries at most ONE_BY_ONE_LIMIT (50,000) steps one by one before it makes a pass.
 */
export const MATCH_STEP_BUDGET = 300_000;
/**
 * Steps one request may take over all its decisions (withinOneRequestBudget): four decisions'
 * worth, ~8 ms at worst. Not one decision's: a real file's costliest decision on an 8 KB path
 * (0098.txt, 159,672) asked on two spellings of that path, or in both readings, would spend
 * more than one, and its crawler would be answered 503 for a file Google reads.
 */
export const REQUEST_STEP_BUDGET = 4 * MATCH_STEP_BUDGET;
/** Asking one tree (its walk's setup, the winner's comparison), in steps besides the characters walked. */
export const ASK_STEPS = 32;
/** Trying one wildcard rule one by one (a call, an indexOf per segment), besides the characters it reads. */
export const TRY_STEPS = 16;
/** A character read by the segment automaton, in steps (a Map look-up and its output links). */
export const AUTOMATON_CHARACTER_STEPS = 4;
/**
 * A wildcard rule entered into an automaton pass, in steps (a runner, its lists, its segments):
 * 0.1 us each for bench/core.bench.ts's worst case (2,000 `/*a<i>*b` on 8 KB, 0.25 ms, answered:
 * 232,000 steps), 0.4-1 us for 1,000-7,000 `/*a<n>` on a path of `a`s on a loaded machine.
 */
export const CANDIDATE_STEPS = 96;

/** A decision that would take more than MATCH_STEP_BUDGET steps: it is not answered. */
export class MatchingTooCostly extends Error {
  override readonly name = "MatchingTooCostly";
  constructor(budget: number = MATCH_STEP_BUDGET) {
    super(
      `matching the path against this robots.txt would take more than ${budget} steps ` +
        "(its wildcard rules, or the groups naming the crawler, are too many for a path that long): " +
        "the decision was not made",
    );
  }
}

/**
 * The budget of the request being decided, while `withinOneRequestBudget` runs; else undefined.
 *
 * One request asks many `decide` calls (every spelling of its path, the record reading's
 * second matcher, a disguised claim judged again, an operator's escaped route) and resolves
 * usage lines on each (attack 13, A13-2: 20 decisions of ~297,000 steps each, 5-12 ms). Inside
 * the scope every StepBudget spends from this one account and `start` does not refill it.
 *
 * Why a module-level value is safe although workerd runs concurrent requests in one isolate:
 * the scope takes a SYNCHRONOUS function (policy/edge-decision.ts decideEdge is pure and never
 * awaits) and is cleared in `finally` before it returns. JavaScript runs one function to its end
 * before another task starts, so no other request can run, and see this account, between the
 * set and the clear. A function returning a promise is refused, so an await can never sit in it.
 */
let requestAccount: RequestAccount | undefined;

/** What one request has left to spend on matching (REQUEST_STEP_BUDGET at its start). */
export interface RequestAccount {
  left: number;
}

/** A request's account, full: made once per request by whoever asks for its decisions. */
export function newRequestAccount(): RequestAccount {
  return { left: REQUEST_STEP_BUDGET };
}

/**
 * Run `decide`, synchronous, with one REQUEST_STEP_BUDGET for all the matching it does (every
 * matcher, tree and usage resolution it asks). Nested calls share the outer request's budget.
 * `account`: the request's, when its decision is asked more than once (the Worker asks again
 * after each fact it gathers; attack 14, A14-3: each call had a fresh budget, 2,177,504 steps
 * for one request on a corpus file); without one, this call's own.
 */
export function withinOneRequestBudget<T>(decide: () => T, account: RequestAccount = newRequestAccount()): T {
  if (requestAccount) return decide();
  requestAccount = account;
  try {
    const answer = decide();
    if (answer instanceof Promise) throw new TypeError("withinOneRequestBudget takes a synchronous function");
    return answer;
  } finally {
    requestAccount = undefined;
  }
}

/**
 * The steps left to one decision; `start` at each `decide`, `spend` in the walks. Inside a
 * request's scope (withinOneRequestBudget) a step is spent from the request's account too.
 */
export class StepBudget {
  private readonly own = { left: MATCH_STEP_BUDGET };

  /** A new decision: its whole budget again (the request's account, if any, is not refilled). */
  start(): void {
    this.own.left = MATCH_STEP_BUDGET;
  }

  /** Take `steps` of the decision's budget and the request's; throws MatchingTooCostly past either. */
  spend(steps: number): void {
    this.own.left -= steps;
    if (this.own.left < 0) throw new MatchingTooCostly();
    if (requestAccount) {
      requestAccount.left -= steps;
      if (requestAccount.left < 0) throw new MatchingTooCostly(REQUEST_STEP_BUDGET);
    }
  }
}
