/**
 * A usage or I/O problem, with a message that says what to fix. Its own file, free of Node's
 * modules, so the parts of the CLI that only talk to an edge (edge-client.ts, policy-plan.ts)
 * also run inside workerd, where the tests drive them against the real Worker.
 */
export class CliError extends Error {}
