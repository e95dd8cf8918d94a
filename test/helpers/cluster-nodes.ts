// Calendar nodes as separate `serve --cluster` processes on loopback, for the cluster tests and
// benches: started with the same site URL (so pages compare byte for byte), an admin password,
// and their own --data directory (users only). stopAll() kills every process it started.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN_PASSWORD = 'clusterTestPass1';
export const AUTH = 'Basic ' + Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
export const SITE_URL = 'http://calendar.test';

export interface CalendarNode {
  id: string;
  url: string;
  proc: ChildProcess;
  dir: string;
  log: string[];
}

export interface NodeSet {
  nodes: CalendarNode[];
  start(id: string, env?: Record<string, string>): Promise<CalendarNode>;
  kill(node: CalendarNode, signal?: NodeJS.Signals): Promise<void>;
  stopAll(): Promise<void>;
}

export function nodeSet(
  natsUrls: string,
  name: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): NodeSet {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-nodes-'));
  const nodes: CalendarNode[] = [];
  const killAll = () => {
    for (const n of nodes) n.proc.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const set: NodeSet = {
    nodes,
    async start(id, extraEnv = {}) {
      const dir = path.join(base, id);
      fs.mkdirSync(dir, { recursive: true });
      const proc = spawn(
        process.execPath,
        [
          ...nodeArgs,
          '--import',
          'tsx',
          path.join(root, 'src/cli/main.ts'),
          'serve',
          '--port',
          '0',
          '--data',
          dir,
          '--site-url',
          SITE_URL,
          '--cluster',
          natsUrls,
          '--cluster-name',
          name,
          '--node-id',
          id,
        ],
        {
          cwd: root,
          env: { ...process.env, CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env, ...extraEnv },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const log: string[] = [];
      proc.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        // a node that does not start in time is stopped: it is in no list stopAll() goes through
        const timer = setTimeout(() => {
          proc.kill('SIGKILL');
          reject(new Error(`node ${id} did not start: ${log.join('')}`));
        }, 30_000);
        proc.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        proc.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`node ${id} exited with ${code}: ${log.join('')}`));
        });
      });
      const node = { id, url, proc, dir, log };
      nodes.push(node);
      return node;
    },
    async kill(node, signal = 'SIGKILL') {
      if (node.proc.exitCode !== null || node.proc.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        node.proc.once('exit', () => resolve());
        node.proc.kill(signal);
      });
    },
    async stopAll() {
      await Promise.all(nodes.map((n) => set.kill(n)));
      process.off('exit', killAll);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  return set;
}

/** The role a node reports (X-Calendar-Node), or undefined when it does not answer. */
export async function roleOf(node: CalendarNode): Promise<string | undefined> {
  try {
    const res = await fetch(`${node.url}/wp-json/tribe/events/v1/categories?per_page=1`, {
      signal: AbortSignal.timeout(2_000),
    });
    await res.arrayBuffer();
    return /role=(\w+)/.exec(res.headers.get('x-calendar-node') ?? '')?.[1];
  } catch {
    return undefined;
  }
}

/** Waits until one of `nodes` reports role=writer; returns it. */
export async function waitForWriter(nodes: CalendarNode[], ms = 15_000): Promise<CalendarNode> {
  const until = Date.now() + ms;
  for (;;) {
    for (const n of nodes) if ((await roleOf(n)) === 'writer') return n;
    if (Date.now() > until) throw new Error(`no writer among ${nodes.map((n) => n.id).join(', ')} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
