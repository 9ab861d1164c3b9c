// The client address used for rate limits: the socket's, or with TRUST_PROXY the right-most address of
// X-Forwarded-For (the one our own proxy appended). IPv4-mapped IPv6 addresses count as their IPv4 form.
import type { IncomingMessage } from 'node:http';

export function normaliseIp(ip: string): string {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length) return normaliseIp(list[list.length - 1]!);
  }
  return normaliseIp(req.socket.remoteAddress ?? 'unknown');
}
