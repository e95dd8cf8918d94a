// calendar-engine webhook add|list|remove: edits DIR/webhooks.json, so it works whether or not a
// server runs on the store (the server re-reads the file within a second). `list` shows what the
// server last did with each webhook (DIR/webhooks-state.json) and the writes still to deliver.
import { CHANGE_TYPES, type ChangeType } from '../changes/feed.ts';
import { WebhookError, addWebhook, outboxSeqs, readWebhookState, readWebhooks, removeWebhook } from '../changes/webhook-registry.ts';
import { CliError, EXIT_OK, EXIT_USAGE, dataDir, parseCommand, showPath, usageError, type CliIo } from './common.ts';

export const WEBHOOK_USAGE = `Usage:
  calendar-engine webhook add URL [--types T,...] [--secret S] [--data DIR]
  calendar-engine webhook list [--data DIR]
  calendar-engine webhook remove ID|URL [--data DIR]

Delivers the change feed to URL: POSTs of {"changes": [...]} in order, signed with
X-Calendar-Signature: t=UNIX,v1=HEX (HMAC-SHA256 of "t.body" with the secret), retried with
exponential backoff until the receiver answers 2xx. A new webhook gets the writes made after
the server notices it (within a second).

Options:
  --types T,...  only these change types: ${CHANGE_TYPES.join(', ')} (default all)
  --secret S     the signing secret, 16 characters or more (default: generated, printed once)
  --data DIR     the store directory (env CALENDAR_DATA, default ./data/store)
  -h, --help     show this help
`;

const OPTIONS = { data: { type: 'string' }, types: { type: 'string' }, secret: { type: 'string' } } as const;

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
  const parsed = parseCommand(rest, OPTIONS, WEBHOOK_USAGE, action === 'list' ? { min: 0, max: 0 } : { min: 1, max: 1, names: action === 'add' ? 'URL' : 'ID or URL' });
  if (parsed.help) {
    io.stdout.write(WEBHOOK_USAGE);
    return EXIT_OK;
  }
  const values = parsed.values as Record<string, string | undefined>;
  if (action !== 'add' && (values.types !== undefined || values.secret !== undefined)) throw usageError('--types and --secret go with webhook add', WEBHOOK_USAGE);
  const dir = dataDir(values.data, io);
  try {
    if (action === 'add') {
      const types = values.types === undefined ? [] : values.types.split(',').map((t) => t.trim()).filter(Boolean);
      for (const t of types) {
        if (!(CHANGE_TYPES as readonly string[]).includes(t)) throw new CliError(`--types: unknown change type '${t}' (expected ${CHANGE_TYPES.join(', ')})`, EXIT_USAGE);
      }
      const hook = addWebhook(dir, parsed.positionals[0], types as ChangeType[], values.secret);
      io.stdout.write(`added webhook ${hook.id} → ${hook.url} (${hook.types.length ? hook.types.join(', ') : 'all changes'}) in ${showPath(dir, io)}\n`);
      if (values.secret === undefined) io.stdout.write(`signing secret, shown only this once:\n${hook.secret}\n`);
      return EXIT_OK;
    }
    if (action === 'remove') {
      const hook = removeWebhook(dir, parsed.positionals[0]);
      io.stdout.write(`removed webhook ${hook.id} (${hook.url})\n`);
      return EXIT_OK;
    }
    const hooks = readWebhooks(dir);
    const state = readWebhookState(dir);
    const seqs = outboxSeqs(dir);
    for (const h of hooks) {
      const st = state[h.id];
      const backlog = st ? seqs.filter((s) => s > st.delivered).length : 0;
      const last = st ? `${st.lastStatus}${st.lastAttempt ? ` at ${st.lastAttempt}` : ''}${st.failures ? `, ${st.failures} failures in a row` : ''}` : 'not started yet';
      io.stdout.write(`${h.id} ${h.url} types=${h.types.length ? h.types.join(',') : 'all'} delivered=${st?.delivered ?? '-'} backlog=${backlog} last=${last}\n`);
    }
    if (hooks.length === 0) io.stderr.write(`no webhooks in ${showPath(dir, io)} (add one: calendar-engine webhook add URL)\n`);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof WebhookError) throw new CliError(err.message);
    throw err;
  }
}
