// Test support: a real redis-server on a free loopback port, without persistence, stopped with the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './server-process.ts';
import { needTool } from './system-tools.ts';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = connect(port, '127.0.0.1', () => {
      probe.end();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });

export async function startRedis(): Promise<TestRedis> {
  needTool('redis-server');
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await reachable(port)) return { url: `redis://127.0.0.1:${port}`, port, stop };
    await new Promise((r) => setTimeout(r, 25));
  }
  await stop();
  throw new Error('redis-server did not start');
}
