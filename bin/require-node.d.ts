/** Type stripping without flags arrived in Node 22.18 (the CLI and scripts run .ts directly). */
export declare const NODE_MINIMUM: string;
/** Why `version` (e.g. "20.20.2") cannot run this project, in one line; undefined when it can. */
export declare function nodeVersionProblem(version: string, what?: string): string | undefined;
/** Exit 2 (a usage error) with the one-line reason when this Node is too old. */
export declare function requireNode(what?: string): void;
