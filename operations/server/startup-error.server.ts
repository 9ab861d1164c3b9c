// A refusal to start, said in a line or a few that a person can act on: the server prints its message alone,
// without a stack, and exits (server.ts).
export class StartupError extends Error {}
