// The baseline: a bare node:http server answering every request with the same precomputed bytes.
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const bodies = JSON.parse(process.argv[3]!) as Record<string, string>;
const buffers = new Map(Object.entries(bodies).map(([path, body]) => [path, Buffer.from(body)]));
createServer((req, res) => {
  const body = buffers.get(req.url ?? '') ?? buffers.values().next().value!;
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
