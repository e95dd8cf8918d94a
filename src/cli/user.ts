// calendar-engine user add|list|remove|reset: edits DIR/users.json directly, so it works whether
// or not a server runs on the store (the server re-reads the file within a second); or the users
// of a cluster (src/cluster/users.ts), which every node installs as soon as they change.
import { UserRegistry } from '../users/registry.ts';
import { UserError, checkRole } from '../users/records.ts';
import { ROLES, type Role } from '../api/wordpress/types.ts';
import { CliError, EXIT_OK, EXIT_USAGE, dataDir, parseCommand, showPath, usageError, type CliIo } from './common.ts';
import { CLUSTER_OPTIONS, CLUSTER_USAGE, readClusterMarker, resolveClusterTarget } from './cluster-options.ts';

export const USER_USAGE = `Usage:
  calendar-engine user add LOGIN --role ROLE [--data DIR] [cluster options]
  calendar-engine user list [--data DIR] [cluster options]
  calendar-engine user remove LOGIN [--data DIR] [cluster options]
  calendar-engine user reset LOGIN [--data DIR] [cluster options]

Manages the users of a store (DIR/users.json) and their application passwords; of a cluster
(docs/cluster.md) with --cluster, or when DIR is a cluster node's (DIR/cluster.json, written by
serve --cluster): the change then reaches every node at once.
A new password is printed once, alone on the last line; only its salted hash is kept.
Use it as HTTP Basic auth: curl -u LOGIN:'PASSWORD' ...

Options:
  --role ROLE    ${ROLES.join(', ')} (user add)
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
${CLUSTER_USAGE}  -h, --help     show this help
`;

const OPTIONS = { data: { type: 'string' }, role: { type: 'string' }, ...CLUSTER_OPTIONS } as const;

export async function userCommand(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help' || action.startsWith('-')) {
    if (action === undefined || (action.startsWith('-') && action !== '--help' && action !== '-h')) {
      throw usageError('missing user command (add, list, remove or reset)', USER_USAGE);
    }
    io.stdout.write(USER_USAGE);
    return EXIT_OK;
  }
  const takesLogin = action === 'add' || action === 'remove' || action === 'reset';
  if (!takesLogin && action !== 'list')
    throw usageError(`unknown user command '${action}' (expected add, list, remove or reset)`, USER_USAGE);
  const parsed = parseCommand(
    rest,
    OPTIONS,
    USER_USAGE,
    takesLogin ? { min: 1, max: 1, names: 'LOGIN' } : { min: 0, max: 0 },
  );
  if (parsed.help) {
    io.stdout.write(USER_USAGE);
    return EXIT_OK;
  }
  const { values } = parsed;
  const login = parsed.positionals[0];
  if (values.role !== undefined && action !== 'add') throw usageError(`--role only goes with 'user add'`, USER_USAGE);
  let role: Role | undefined;
  if (action === 'add') {
    if (typeof values.role !== 'string')
      throw usageError(`user add needs --role (one of ${ROLES.join(', ')})`, USER_USAGE);
    try {
      checkRole(values.role);
    } catch (err) {
      throw new CliError((err as Error).message, EXIT_USAGE, USER_USAGE);
    }
    role = values.role;
  }
  const dir = dataDir(values.data, io);
  // a cluster named by the options or the environment, else by DIR/cluster.json
  const marker = values.cluster === undefined && !io.env.CALENDAR_CLUSTER ? readClusterMarker(dir) : undefined;
  const target = resolveClusterTarget({ ...marker, ...values }, io);
  let users: UserRegistry;
  let close = async () => {};
  let where = showPath(dir, io);
  if (target) {
    const { openClusterUsers } = await import('../cluster/users.ts');
    try {
      ({ users, close } = await openClusterUsers({ ...target, connectTimeoutMs: 10_000 }));
    } catch (err) {
      throw new CliError(
        `cannot reach cluster ${target.name} (${target.servers.join(',')}): ${(err as Error).message}`,
      );
    }
    where = `cluster ${target.name}`;
  } else {
    users = UserRegistry.open(dir);
  }

  try {
    switch (action) {
      case 'add': {
        const { user, password } = await users.apply({ action: 'add', login, role: role! });
        io.stdout.write(`created user ${user!.id} (${user!.login}, ${user!.role}) in ${where}\n`);
        io.stdout.write(`application password for ${user!.login}, shown only this once:\n`);
        io.stdout.write(`${password}\n`);
        return EXIT_OK;
      }
      case 'list': {
        const list = users.list();
        for (const u of list) io.stdout.write(`${u.id} ${u.login} ${u.role}\n`);
        if (list.length === 0)
          io.stderr.write(`no users in ${where} (add one: calendar-engine user add LOGIN --role ROLE)\n`);
        return EXIT_OK;
      }
      case 'remove': {
        const { user } = await users.apply({ action: 'remove', login });
        io.stdout.write(`removed user ${user?.id ?? '?'} (${user?.login ?? login})\n`);
        return EXIT_OK;
      }
      default: {
        const { user, password } = await users.apply({ action: 'reset', login });
        io.stdout.write(
          `new application password for user ${user?.id ?? '?'} (${user?.login ?? login}); the old one no longer works:\n`,
        );
        io.stdout.write(`${password}\n`);
        return EXIT_OK;
      }
    }
  } catch (err) {
    if (err instanceof UserError) throw new CliError(err.message);
    throw err;
  } finally {
    users.close();
    await close();
  }
}
