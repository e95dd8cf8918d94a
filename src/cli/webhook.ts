// calendar-engine webhook add|list|remove: edits DIR/webhooks.json, so it works whether or not a
// server runs on the store (the server re-reads the file within a second). `list` shows what the
// server last did with each webhook (DIR/webhooks-state.json) and the writes still to deliver.
// With --cluster, the same in the cluster's KV bucket (src/cluster/webhooks.ts).
import { CHANGE_TYPES, type ChangeType } from '../changes/change.ts';
import { readChangeLog } from '../changes/log.ts';
import {
  WebhookError,
  describeWebhook,
  findWebhook,
  newWebhook,
  readWebhookState,
  readWebhooks,
  redactUrl,
  removeWebhook,
  saveWebhook,
  type Webhook,
} from '../changes/webhook-registry.ts';
import { checkUrlTarget } from '../security/addresses.ts';
import { CliError, EXIT_OK, EXIT_USAGE, dataDir, parseCommand, showPath, usageError, type CliIo } from './common.ts';
import {
  CLUSTER_OPTIONS,
  CLUSTER_USAGE,
  readClusterMarker,
  resolveClusterTarget,
  type ClusterTarget,
} from './cluster-options.ts';

export const WEBHOOK_USAGE = `Usage:
  calendar-engine webhook add URL [--types T,...] [--secret S] [--allow-private]
                                  [--data DIR | --cluster URLS --cluster-name N]
  calendar-engine webhook list [--data DIR | --cluster URLS --cluster-name N]
  calendar-engine webhook remove ID|URL [--data DIR | --cluster URLS --cluster-name N]

Delivers the change feed to URL: POSTs of {"changes": [...]} in order, signed with
X-Calendar-Signature: t=UNIX,v1=HEX (HMAC-SHA256 of "t.body" with the secret), retried with
exponential backoff until the receiver answers 2xx. A new webhook gets the writes made after
the server notices it (within a second). A URL whose host is or resolves to a loopback,
private, link-local or other reserved address, or to one of this host's own addresses, is
refused, when added and at every delivery, unless it was added with --allow-private. A password
in the URL and the values of its query are shown as *** (list, messages).

Options:
  --types T,...  only these change types: ${CHANGE_TYPES.join(', ')} (default all)
  --secret S     the signing secret, 16 characters or more (default: generated, printed once)
  --allow-private  this webhook may deliver to loopback, private and link-local addresses and
                 to this host's own (a receiver on the same machine or network)
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store); a cluster
                 node's (DIR/cluster.json, written by serve --cluster) reaches its cluster
  -h, --help     show this help

A cluster's webhooks instead (kept in its NATS KV bucket, delivered by its writer node):
${CLUSTER_USAGE}`;

const OPTIONS = {
  data: { type: 'string' },
  types: { type: 'string' },
  secret: { type: 'string' },
  'allow-private': { type: 'boolean' },
  ...CLUSTER_OPTIONS,
} as const;

/** What the command does, on a store directory or on a cluster's bucket. */
interface Registry {
  where: string;
  add(hook: Webhook): Promise<void>;
  remove(idOrUrl: string): Promise<Webhook>;
  /** each webhook's line for `list` */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

function storeRegistry(dir: string, io: CliIo): Registry {
  return {
    where: showPath(dir, io),
    add: async (hook) => void saveWebhook(dir, hook),
    remove: async (idOrUrl) => removeWebhook(dir, idOrUrl),
    async list() {
      const state = readWebhookState(dir);
      const seqs = readChangeLog(dir).map((w) => w.seq);
      return readWebhooks(dir).map((h) =>
        describeWebhook(h, state[h.id], state[h.id] ? seqs.filter((s) => s > state[h.id].delivered).length : 0),
      );
    },
    close: async () => {},
  };
}

async function clusterRegistry(target: ClusterTarget): Promise<Registry> {
  const { connectNats } = await import('../cluster/connect.ts');
  const cw = await import('../cluster/webhooks.ts');
  const { servers, name } = target;
  // one attempt (with the target's credentials and TLS): the command says at once what is wrong
  const nc = await connectNats(target, Date.now()).catch((err: Error) => {
    throw new WebhookError(`cannot reach NATS at ${servers.join(',')}: ${err.message}`);
  });
  try {
    const kv = await cw.openWebhookBucket(nc, name);
    return {
      where: `cluster ${name}`,
      add: async (hook) => cw.addClusterWebhook(kv, hook, await cw.streamHead(nc, name)),
      async remove(idOrUrl) {
        const hook = findWebhook((await cw.readClusterWebhooks(kv)).hooks, idOrUrl);
        await cw.removeClusterWebhook(kv, hook.id);
        return hook;
      },
      async list() {
        const { hooks, states } = await cw.readClusterWebhooks(kv);
        const head = await cw.streamHead(nc, name);
        // writes after its position, whatever their types
        return hooks.map((h) =>
          describeWebhook(h, states[h.id], states[h.id] ? Math.max(0, head - states[h.id].delivered) : 0),
        );
      },
      close: () => nc.close(),
    };
  } catch (err) {
    await nc.close();
    throw err;
  }
}

export async function webhookCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined || action.startsWith('-') || action === 'help') {
    if (action === '--help' || action === '-h' || action === 'help') {
      io.stdout.write(WEBHOOK_USAGE);
      return EXIT_OK;
    }
    throw usageError('missing webhook command (add, list or remove)', WEBHOOK_USAGE);
  }
  if (action !== 'add' && action !== 'list' && action !== 'remove') {
    throw usageError(`unknown webhook command '${action}' (expected add, list or remove)`, WEBHOOK_USAGE);
  }
  const parsed = parseCommand(
    rest,
    OPTIONS,
    WEBHOOK_USAGE,
    action === 'list' ? { min: 0, max: 0 } : { min: 1, max: 1, names: action === 'add' ? 'URL' : 'ID or URL' },
  );
  if (parsed.help) {
    io.stdout.write(WEBHOOK_USAGE);
    return EXIT_OK;
  }
  const values = parsed.values as Record<string, string | undefined>;
  const addOnly =
    values.types !== undefined || values.secret !== undefined || parsed.values['allow-private'] !== undefined;
  if (action !== 'add' && addOnly) {
    throw usageError('--types, --secret and --allow-private go with webhook add', WEBHOOK_USAGE);
  }
  const dir = dataDir(values.data, io);
  // a cluster named by the options or the environment, else by DIR/cluster.json (a cluster node's
  // data folder, as for 'user')
  const named = values.cluster !== undefined || !!io.env.CALENDAR_CLUSTER;
  if (named && values.data !== undefined) throw usageError('--data and --cluster: one or the other', WEBHOOK_USAGE);
  const cluster = resolveClusterTarget(named ? values : { ...readClusterMarker(dir), ...values }, io);
  let registry: Registry | undefined;
  try {
    registry = cluster ? await clusterRegistry(cluster) : storeRegistry(dir, io);
    if (action === 'add') {
      const types =
        values.types === undefined
          ? []
          : values.types
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean);
      for (const t of types) {
        if (!(CHANGE_TYPES as readonly string[]).includes(t))
          throw new CliError(`--types: unknown change type '${t}' (expected ${CHANGE_TYPES.join(', ')})`, EXIT_USAGE);
      }
      const allowPrivate = parsed.values['allow-private'] === true;
      const hook = newWebhook(parsed.positionals[0], types as ChangeType[], values.secret, { allowPrivate });
      if (!allowPrivate)
        await checkUrlTarget(hook.url).catch((err: Error) => {
          throw new WebhookError(err.message);
        });
      await registry.add(hook);
      const wanted = hook.types.length ? hook.types.join(', ') : 'all changes';
      io.stdout.write(`added webhook ${hook.id} → ${redactUrl(hook.url)} (${wanted}) in ${registry.where}\n`);
      if (values.secret === undefined) io.stdout.write(`signing secret, shown only this once:\n${hook.secret}\n`);
      return EXIT_OK;
    }
    if (action === 'remove') {
      const hook = await registry.remove(parsed.positionals[0]);
      io.stdout.write(`removed webhook ${hook.id} (${redactUrl(hook.url)})\n`);
      return EXIT_OK;
    }
    const lines = await registry.list();
    for (const line of lines) io.stdout.write(line + '\n');
    if (lines.length === 0)
      io.stderr.write(`no webhooks in ${registry.where} (add one: calendar-engine webhook add URL)\n`);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof WebhookError) throw new CliError(err.message);
    throw err;
  } finally {
    await registry?.close();
  }
}
