// An MCP client that asks for another protocol version than its SDK's latest, as a client built on an older
// SDK does: the SDK's Client always asks for LATEST_PROTOCOL_VERSION (2025-11-25 in 1.32). `askFor` sets it on
// one client of a test; loaded with `node --import` into another process (the Inspector CLI), this module sets
// it on every client there, to the version MCP_CLIENT_ASKS names.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

type Request = (message: { method: string; params?: Record<string, unknown> }, ...rest: unknown[]) => Promise<unknown>;

/** Makes `client` (every client, given `Client.prototype`) ask for `version` when it initialises. */
export function askFor<C extends Client>(client: C, version: string): C {
  const target = client as unknown as { request: Request };
  const request = target.request;
  target.request = function (this: unknown, message, ...rest) {
    const asked = message.method === 'initialize' ? { ...message, params: { ...message.params, protocolVersion: version } } : message;
    return request.call(this, asked, ...rest);
  };
  return client;
}

if (process.env.MCP_CLIENT_ASKS) askFor(Client.prototype as Client, process.env.MCP_CLIENT_ASKS);
