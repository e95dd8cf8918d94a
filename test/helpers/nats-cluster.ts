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

export const NATS_MISSING =
  'nats-server is not installed (Debian: apt-get install nats-server; see docs/cluster.md): cluster tests skipped';

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

/** Resolves once `port` accepts connections; rejects when `exited` settles first or after `ms`. */
async function waitForPort(port: number, ms: number, exited: () => string | undefined): Promise<void> {
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
    const why = exited();
    if (why !== undefined) throw new Error(`nats-server on port ${port} exited before listening: ${why}`);
    if (Date.now() > until) throw new Error(`nats-server on port ${port} did not start within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `n` distinct free ports (a port the kernel hands out twice in a row would make two servers clash). */
async function distinctPorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** How many times a cluster start is tried with fresh ports, and a restart on the same port. */
const START_ATTEMPTS = 3;

/** `args`: more nats-server arguments for every server (e.g. --user/--pass) */
export async function startNatsCluster(
  n = 3,
  opts: { bin?: string; log?: boolean; args?: string[] } = {},
): Promise<NatsCluster> {
  const bin = opts.bin ?? natsServerPath();
  if (!bin) throw new Error(NATS_MISSING);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-'));
  let ports: Array<{ client: number; route: number }> = [];
  let servers: NatsServer[] = [];
  let routes = '';
  const choosePorts = async () => {
    const free = await distinctPorts(2 * n);
    ports = Array.from({ length: n }, (_, i) => ({ client: free[2 * i], route: free[2 * i + 1] }));
    servers = ports.map((p, i) => ({
      name: `n${i + 1}`,
      port: p.client,
      url: `nats://127.0.0.1:${p.client}`,
      proc: undefined,
    }));
    routes = ports.map((p) => `nats://127.0.0.1:${p.route}`).join(',');
  };
  /** one spawn of server i; rejects with its exit status and last stderr when it exits before listening */
  const spawnOnce = async (i: number) => {
    const s = servers[i];
    const dir = path.join(root, s.name);
    fs.mkdirSync(dir, { recursive: true });
    const args = [
      '-a',
      '127.0.0.1',
      '-p',
      String(s.port),
      '-n',
      s.name,
      '-js',
      '-sd',
      dir,
      ...(n > 1
        ? ['--cluster_name', 'calendar-test', '--cluster', `nats://127.0.0.1:${ports[i].route}`, '--routes', routes]
        : []),
      ...(opts.args ?? []),
    ];
    const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      if (opts.log) process.stderr.write(chunk);
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    let exit: string | undefined;
    s.proc = proc;
    proc.once('exit', (code, signal) => {
      exit = `exit ${code ?? signal}; stderr: ${stderr.trim() || '(empty)'}`;
      if (s.proc === proc) s.proc = undefined;
    });
    try {
      await waitForPort(s.port, 20_000, () => exit);
    } catch (err) {
      proc.kill('SIGKILL');
      throw err;
    }
  };
  /** (re)starts server i on its ports: a restart right after a kill may find the port not yet free */
  const start = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await spawnOnce(i);
      } catch (err) {
        if (attempt >= START_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const killAll = () => {
    for (const s of servers) s.proc?.kill('SIGKILL');
  };
  process.once('exit', killAll);
  // a free port can be taken by another process (the other test process's servers) between the
  // probe and the server's bind, and the server then exits: start over on fresh ports
  for (let attempt = 1; ; attempt++) {
    await choosePorts();
    try {
      await Promise.all(servers.map((_, i) => spawnOnce(i)));
      break;
    } catch (err) {
      killAll();
      if (attempt >= START_ATTEMPTS) {
        process.off('exit', killAll);
        throw err;
      }
      process.stderr.write(
        `nats-cluster: start attempt ${attempt} failed (${(err as Error).message}); trying fresh ports\n`,
      );
      fs.rmSync(root, { recursive: true, force: true });
      fs.mkdirSync(root, { recursive: true });
    }
  }
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    kill(i, signal = 'SIGKILL') {
      servers[i].proc?.kill(signal);
    },
    start,
    async stop() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              const p = s.proc;
              if (!p || p.exitCode !== null) return resolve();
              p.once('exit', () => resolve());
              p.kill('SIGKILL');
            }),
        ),
      );
      process.off('exit', killAll);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
