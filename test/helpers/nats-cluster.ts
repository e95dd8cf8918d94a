// Starts a NATS cluster (JetStream on) on loopback for tests and benches: each server on free
// ports with its own store directory under os.tmpdir(); stop() kills every process it started.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The nats-server binary, or undefined when it is not installed. */
export function natsServerPath(): string | undefined {
  for (const p of ['nats-server', '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    const r = spawnSync(p, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return p;
  }
  return undefined;
}

export const NATS_MISSING = 'nats-server is not installed (Debian: apt-get install nats-server; see docs/cluster.md): cluster tests skipped';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface NatsServer {
  name: string;
  port: number;
  url: string;
  proc: ChildProcess | undefined;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** every client URL, comma-separated */
  urls: string;
  kill(i: number, signal?: NodeJS.Signals): void;
  start(i: number): Promise<void>;
  stop(): Promise<void>;
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nats-server on port ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `args`: more nats-server arguments for every server (e.g. --user/--pass) */
export async function startNatsCluster(n = 3, opts: { bin?: string; log?: boolean; args?: string[] } = {}): Promise<NatsCluster> {
  const bin = opts.bin ?? natsServerPath();
  if (!bin) throw new Error(NATS_MISSING);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-'));
  const ports: Array<{ client: number; route: number }> = [];
  for (let i = 0; i < n; i++) ports.push({ client: await freePort(), route: await freePort() });
  const servers: NatsServer[] = ports.map((p, i) => ({ name: `n${i + 1}`, port: p.client, url: `nats://127.0.0.1:${p.client}`, proc: undefined }));
  const routes = ports.map((p) => `nats://127.0.0.1:${p.route}`).join(',');
  const start = async (i: number) => {
    const s = servers[i];
    const dir = path.join(root, s.name);
    fs.mkdirSync(dir, { recursive: true });
    const args = ['-a', '127.0.0.1', '-p', String(s.port), '-n', s.name, '-js', '-sd', dir,
      ...(n > 1 ? ['--cluster_name', 'calendar-test', '--cluster', `nats://127.0.0.1:${ports[i].route}`, '--routes', routes] : []), ...(opts.args ?? [])];
    const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', opts.log ? 'inherit' : 'ignore'] });
    s.proc = proc;
    proc.once('exit', () => {
      if (s.proc === proc) s.proc = undefined;
    });
    await waitForPort(s.port, 10_000);
  };
  const killAll = () => {
    for (const s of servers) s.proc?.kill('SIGKILL');
  };
  process.once('exit', killAll);
  try {
    await Promise.all(servers.map((_, i) => start(i)));
  } catch (err) {
    killAll();
    throw err;
  }
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    kill(i, signal = 'SIGKILL') {
      servers[i].proc?.kill(signal);
    },
    start,
    async stop() {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        const p = s.proc;
        if (!p || p.exitCode !== null) return resolve();
        p.once('exit', () => resolve());
        p.kill('SIGKILL');
      })));
      process.off('exit', killAll);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
