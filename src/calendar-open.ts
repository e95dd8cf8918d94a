// Opening a calendar: the options checked, the site's settings, the engine filled from its write
// log (a store directory's snapshot and journal, a cluster's snapshot and stream, or nothing in
// memory), the change feed started from the changes kept on disk, the media library's files.
import path from 'node:path';
import { Engine } from './engine/engine.ts';
import { fail } from './api/wordpress/errors.ts';
import type { SiteConfig } from './api/wordpress/types.ts';
import { ChangeFeed } from './changes/feed.ts';
import { openChangeLog, readChangeLogFile, startingWrites } from './changes/log.ts';
import { storeDispatcher } from './changes/store-webhooks.ts';
import { DiskFiles, MemoryFiles } from './media/files.ts';
import { MediaLibrary } from './media/library.ts';
import { embeddedOptions } from './options/options.ts';
import { UserRegistry } from './users/registry.ts';
import { MemoryLog } from './write-log/memory.ts';
import { openStoreLog } from './write-log/store.ts';
import { CalendarHandle } from './calendar-handle.ts';
import type { CalendarOptions } from './calendar-options.ts';

/** A calendar's parts, opened: the engine filled from its log (memory, a store directory or a
 *  cluster node), the change feed, the media library; Calendar (calendar.ts) is built on them. */
export async function openHandle(options: CalendarOptions): Promise<CalendarHandle> {
  // checked and defaulted by the options table (src/options/options.ts)
  const { options: opts, problem } = embeddedOptions(options);
  if (problem) throw fail('invalid_option', [problem]);
  const { timezone, perPage, cacheBytes, uploadLimit } = opts as Required<
    Pick<CalendarOptions, 'timezone' | 'perPage' | 'cacheBytes' | 'uploadLimit'>
  >;
  const restPrefix = '/' + (opts.restPrefix ?? '').replace(/^\/+|\/+$/g, '');
  const site: SiteConfig = {
    timezone,
    perPage,
    restPrefix: restPrefix === '/' ? '' : restPrefix,
    siteUrl: (opts.siteUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    now: opts.now ?? (() => new Date()),
  };
  const engine = new Engine();
  const users = opts.users ?? UserRegistry.open(opts.dir);
  const retain = {
    retainCount: opts.changesRetainCount,
    retainMs: opts.changesRetainMs,
    retainBytes: opts.changesRetainBytes,
  };
  if (opts.cluster) {
    // loaded only for a cluster: a single process never loads the NATS client
    const { openNode } = await import('./cluster/open.ts');
    const { handle, node } = await openNode(
      opts.cluster,
      engine,
      (log, seq) => new CalendarHandle(engine, site, users, log, cacheBytes, new ChangeFeed(seq, retain)),
      opts.webhooks,
    );
    // the files in the cluster's object store, writes on the writer (loaded only for a cluster)
    const { clusterMediaLibrary } = await import('./cluster/media.ts');
    try {
      handle.media = await clusterMediaLibrary(node, handle, uploadLimit);
    } catch (err) {
      await handle.close();
      throw err;
    }
    handle.startHorizon();
    return handle;
  }
  // a store directory: its snapshot and journal replayed into the engine (src/write-log/store.ts)
  const stored = opts.dir ? await openStoreLog(opts.dir, engine, opts) : undefined;
  const log = stored?.log ?? new MemoryLog();
  const feed = new ChangeFeed(log.seq, retain);
  // (the options were checked before the store was opened)
  // webhooks pin the feed at their positions before it is filled: what they lack is kept
  const webhooks =
    opts.dir && opts.webhooks !== false && !opts.readOnly
      ? storeDispatcher(opts.dir, feed, typeof opts.webhooks === 'object' ? opts.webhooks : {})
      : undefined;
  // the feed starts with the logged changes (DIR/changes.jsonl) and the writes replayed after them
  const replayed = stored?.replayed ?? [];
  const snapshotSeq = replayed.length > 0 ? replayed[0].seq - 1 : log.seq;
  const logged = opts.dir ? readChangeLogFile(opts.dir) : undefined;
  const start = logged ? startingWrites(logged.writes, replayed, snapshotSeq) : replayed;
  if (start.length > 0) {
    feed.backfill(start[0].seq - 1);
    for (const w of start) feed.add(w.held, w.seq);
  }
  const handle = new CalendarHandle(engine, site, users, log, cacheBytes, feed);
  // (after the store: its replay named every file that must stay; only temp files are swept)
  // (media writes are refused as the calendar's other writes are: read-only, or a store with a fault)
  const files = opts.dir ? DiskFiles.open(path.join(opts.dir, 'uploads'), opts.readOnly) : new MemoryFiles();
  handle.media = new MediaLibrary(() => handle.collections.core, files, {
    limit: uploadLimit,
    ready: async () => stored?.log.guard.admit(),
  });
  if (opts.dir && logged && !opts.readOnly) handle.changeLog = openChangeLog(opts.dir, feed, logged, snapshotSeq);
  stored?.log.start(handle);
  if (webhooks) handle.stoppers.push(() => webhooks.stop());
  const changeLog = handle.changeLog;
  if (changeLog) handle.stoppers.push(() => changeLog.stop());
  webhooks?.start();
  await handle.extendHorizon();
  handle.startHorizon();
  return handle;
}
