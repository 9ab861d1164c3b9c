// The baseline: a bare node:http server answering every request with the same precomputed bytes. Bodies are
// given as JSON (path → text), or with a fourth argument `gzip` as base64 of gzip bytes sent as such.
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const bodies = JSON.parse(process.argv[3]!) as Record<string, string>;
const gzip = process.argv[4] === 'gzip';
const buffers = new Map(Object.entries(bodies).map(([path, body]) => [path, gzip ? Buffer.from(body, 'base64') : Buffer.from(body)]));
const type = gzip ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8';
createServer((req, res) => {
  const body = buffers.get(req.url ?? '') ?? buffers.values().next().value!;
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(body);
}).listen(port, '127.0.0.1');
