// Users and application passwords, WordPress style (docs/operating.md): the users of DIR/users.json
// (its form: records.ts; the passwords and their hashes: passwords.ts).
//
// Several processes share the file (a running server and the command line), so every mutation
// re-reads the file under DIR/users.json.lock, changes it, and replaces it atomically
// (temp + fsync + rename). A running server picks the change up through watch().
//
// A cluster node's registry is attached to the cluster's copy instead (attach(), RemoteUsers:
// the same JSON in a JetStream key, src/cluster/users.ts): changes go through apply() as a
// compare-and-set on that copy, and every node installs each new version as it is written.
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Role, User, UserDirectory } from '../api/wordpress/types.ts';
import { nameFile } from '../store/faults.ts';
import { editLocked, watchFile } from '../shared-file/edit.ts';
import { checkHash, checkHashAsync, generatePassword, hashPassword, normalizePassword } from './passwords.ts';
import {
  type StoredUser,
  type UsersFile,
  UserError,
  checkLogin,
  checkRole,
  emptyFile,
  fileText,
  publicUser,
  pushUser,
  readText,
  USERS_FILE,
} from './records.ts';

/** A hash compared against when the login is unknown, so both cases cost the same. */
let dummyHash: string | undefined;

/** The users file kept elsewhere than DIR/users.json (a cluster's key-value bucket): versioned text. */
export interface RemoteUsers {
  /** what it names (for messages), e.g. "the users of cluster mysite" */
  readonly where: string;
  /** the current text ('' when there is none yet) and its revision (0: never written) */
  read(): Promise<{ text: string; revision: number }>;
  /** writes `text` if the copy is still at `revision`; false when another change came first */
  write(text: string, revision: number): Promise<boolean>;
  /** calls `onText` with every newer version from now on (the current one first) */
  watch(onText: (text: string) => void): void;
  /** stops the watch */
  stop(): void;
}

/** One change of the users, for apply(): the command line and a server's start use it in both modes. */
export type UserCommand =
  | { action: 'add'; login: string; role: Role }
  | { action: 'remove'; login: string }
  | { action: 'reset'; login: string }
  | { action: 'ensure'; login: string; role: Role; password: string };

export class UserRegistry implements UserDirectory {
  /** null = memory only */
  readonly file: string | null;
  private data: UsersFile = emptyFile();
  private byLoginKey = new Map<string, StoredUser>();
  private byIdKey = new Map<number, StoredUser>();
  /** login key → HMAC of the last password that verified, and the stored hash it verified against */
  private verified = new Map<string, { stored: string; mac: Buffer }>();
  private readonly macKey = randomBytes(32);
  private lastText: string | null = null;
  /** attached: the users are a cluster's (attach()) */
  private remote: RemoteUsers | undefined;
  private stopWatch: (() => void) | null = null;

  private constructor(file: string | null) {
    this.file = file;
  }

  /** No dir: memory only. Otherwise reads DIR/users.json (a missing file means no users yet). */
  static open(dir?: string): UserRegistry {
    const reg = new UserRegistry(dir === undefined ? null : path.join(dir, USERS_FILE));
    reg.reload();
    return reg;
  }

  byLogin(login: string): User | undefined {
    const u = this.byLoginKey.get(login.toLowerCase());
    return u && publicUser(u);
  }

  byId(id: number): User | undefined {
    const u = this.byIdKey.get(id);
    return u && publicUser(u);
  }

  /** Every user, by id. */
  list(): User[] {
    return this.data.users.map(publicUser);
  }

  /** Creates `login` with a fresh application password (returned once, never stored). */
  add(login: string, role: Role): { user: User; password: string } {
    const { change, password } = this.change({ action: 'add', login, role });
    return { user: this.mutate(change)!, password: password! };
  }

  remove(login: string): void {
    this.mutate(this.change({ action: 'remove', login }).change);
  }

  /** Replaces the application password of `login`; returns the new one (the old one stops working). */
  reset(login: string): string {
    const { change, password } = this.change({ action: 'reset', login });
    this.mutate(change);
    return password!;
  }

  /** Creates or updates `login` so it has exactly this role and password (CALENDAR_ADMIN_PASSWORD). */
  ensure(login: string, role: Role, password: string): User {
    return (
      this.unchanged(login, role, password) ??
      this.mutate(this.change({ action: 'ensure', login, role, password }).change)!
    );
  }

  /** `login` as it is when it already has this role and password (ensure has nothing to do). */
  private unchanged(login: string, role: Role, password: string): User | undefined {
    const current = this.byLoginKey.get(login.toLowerCase());
    return current && current.role === role && this.verifySync(login, password) ? publicUser(current) : undefined;
  }

  /**
   * Any change, in a file, in memory or (attached) in a cluster's copy: the user it made or
   * changed and the new application password, if any. Resolves once the change is stored.
   */
  async apply(command: UserCommand): Promise<{ user?: User; password?: string }> {
    if (command.action === 'ensure') {
      const same = this.unchanged(command.login, command.role, command.password);
      if (same) return { user: same };
    }
    const { change, password } = this.change(command);
    if (!this.remote) return { user: this.mutate(change), password };
    const remote = this.remote;
    for (let attempt = 0; attempt < 20; attempt++) {
      const { text, revision } = await remote.read();
      const copy = readText(text, remote.where);
      const user = change(copy);
      const next = fileText(copy);
      if (await remote.write(next, revision)) {
        this.install(copy, next);
        return { user, password };
      }
    }
    throw new UserError(`${remote.where} kept changing under this change: try again`);
  }

  /** The change a command makes to a users file (hashing a new password once, outside any retry). */
  private change(command: UserCommand): { change: (data: UsersFile) => User | undefined; password?: string } {
    const same = (u: StoredUser) => u.login.toLowerCase() === command.login.toLowerCase();
    switch (command.action) {
      case 'add': {
        const { login, role } = command;
        checkLogin(login);
        checkRole(role);
        const password = generatePassword();
        const stored = hashPassword(password);
        return {
          password,
          change: (data) => {
            const existing = data.users.find(same);
            // this very change, stored by an attempt whose answer was lost (the hash is freshly salted)
            if (existing?.password === stored) return publicUser(existing);
            if (existing) throw new UserError(`user "${login}" already exists`);
            return publicUser(pushUser(data, login, role, stored));
          },
        };
      }
      case 'remove':
        return {
          change: (data) => {
            const i = data.users.findIndex(same);
            if (i < 0) throw new UserError(`no user "${command.login}"`);
            return publicUser(data.users.splice(i, 1)[0]);
          },
        };
      case 'reset': {
        const password = generatePassword();
        const stored = hashPassword(password);
        return {
          password,
          change: (data) => {
            const u = data.users.find(same);
            if (!u) throw new UserError(`no user "${command.login}"`);
            u.password = stored;
            return publicUser(u);
          },
        };
      }
      default: {
        const { login, role, password } = command;
        checkLogin(login);
        checkRole(role);
        if (normalizePassword(password).length === 0) throw new UserError(`the password for "${login}" is empty`);
        const stored = hashPassword(password);
        return {
          change: (data) => {
            const u = data.users.find(same);
            if (!u) return publicUser(pushUser(data, login, role, stored));
            u.role = role;
            u.password = stored;
            return publicUser(u);
          },
        };
      }
    }
  }

  /**
   * From now on the users are `remote`'s (a cluster's copy), not DIR/users.json: every newer
   * version is installed as it is written. A copy never written starts as this registry's
   * users (DIR/users.json of the first node, so a single server's users carry into a cluster).
   */
  async attach(remote: RemoteUsers, onError: (err: Error) => void = () => {}): Promise<void> {
    this.close();
    const { revision } = await remote.read();
    if (revision === 0 && this.data.users.length > 0) await remote.write(fileText(this.data), 0);
    this.remote = remote;
    const current = await remote.read();
    this.install(readText(current.text, remote.where), current.text);
    remote.watch((text) => {
      if (text === this.lastText) return;
      try {
        this.install(readText(text, remote.where), text);
      } catch (err) {
        onError(err as Error);
      }
    });
  }

  /**
   * The user whose application password this is, or null. Whitespace in `password` is ignored.
   * The first success costs one scrypt, made on libuv's thread pool (the event loop goes on
   * answering meanwhile); later requests with the same password compare an HMAC (keyed by a
   * per-process secret) instead, so Basic auth on every request stays cheap (known()). A reset
   * or a removal of the user forgets it. Unknown logins cost a scrypt too, so timing does not
   * tell which logins exist.
   */
  async verify(login: string, password: string): Promise<User | null> {
    const key = login.toLowerCase();
    const u = this.byLoginKey.get(key);
    if (!u) {
      dummyHash ??= hashPassword(generatePassword());
      await checkHashAsync(password, dummyHash);
      return null;
    }
    const mac = this.mac(password);
    if (this.knownMac(key, u, mac)) return publicUser(u);
    const stored = u.password;
    if (!(await checkHashAsync(password, stored))) return null;
    // the user may have been reset or removed while the hash was made: remember only the same one
    if (this.byLoginKey.get(key)?.password === stored) this.verified.set(key, { stored, mac });
    return publicUser(u);
  }

  /** verify(), blocking the thread for the scrypt (the command line, ensure()). */
  verifySync(login: string, password: string): User | null {
    const key = login.toLowerCase();
    const u = this.byLoginKey.get(key);
    if (!u) {
      dummyHash ??= hashPassword(generatePassword());
      checkHash(password, dummyHash);
      return null;
    }
    const mac = this.mac(password);
    if (this.knownMac(key, u, mac)) return publicUser(u);
    if (!checkHash(password, u.password)) return null;
    this.verified.set(key, { stored: u.password, mac });
    return publicUser(u);
  }

  /**
   * The user when this very password verified before (against the user's current hash): no
   * scrypt, an HMAC only. undefined when that is not known (verify() decides).
   */
  known(login: string, password: string): User | undefined {
    const key = login.toLowerCase();
    const u = this.byLoginKey.get(key);
    return u !== undefined && this.knownMac(key, u, this.mac(password)) ? publicUser(u) : undefined;
  }

  private mac(password: string): Buffer {
    return createHmac('sha256', this.macKey).update(normalizePassword(password)).digest();
  }

  private knownMac(key: string, u: StoredUser, mac: Buffer): boolean {
    const hit = this.verified.get(key);
    return hit !== undefined && hit.stored === u.password && timingSafeEqual(hit.mac, mac);
  }

  /**
   * Re-reads users.json whenever another process replaces it (polled every 250 ms, so a change
   * shows within a second). The poller is unref'd: it never keeps the process alive.
   * A file that fails to parse is ignored (the previous users stay) and reported to onError.
   */
  watch(onChange?: () => void, onError: (err: Error) => void = () => {}): void {
    if (this.file === null || this.stopWatch || this.remote) return;
    this.stopWatch = watchFile(this.file, () => {
      try {
        if (this.reload()) onChange?.();
      } catch (err) {
        onError(err as Error);
      }
    });
  }

  close(): void {
    this.stopWatch?.();
    this.stopWatch = null;
    this.remote?.stop();
  }

  /** Reads the file again; true when its content changed. */
  reload(): boolean {
    if (this.file === null || this.remote) return false;
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      text = '';
    }
    if (text === this.lastText) return false;
    this.install(readText(text, this.file), text);
    return true;
  }

  private install(data: UsersFile, text: string | null): void {
    this.data = data;
    this.lastText = text;
    this.byLoginKey = new Map(data.users.map((u) => [u.login.toLowerCase(), u]));
    this.byIdKey = new Map(data.users.map((u) => [u.id, u]));
    for (const key of this.verified.keys()) if (!this.byLoginKey.has(key)) this.verified.delete(key);
  }

  /** Read-modify-write of the file under the users lock; in memory only when there is no file. */
  private mutate<T>(change: (data: UsersFile) => T): T {
    if (this.remote) throw new Error(`the users are ${this.remote.where}: change them with apply()`);
    if (this.file === null) {
      const copy: UsersFile = structuredClone(this.data);
      const result = change(copy);
      this.install(copy, null);
      return result;
    }
    const file = this.file;
    try {
      const { copy, text, result } = editLocked(file, () => {
        this.reload();
        const copy: UsersFile = structuredClone(this.data);
        const result = change(copy);
        return { copy, text: fileText(copy), result };
      });
      this.install(copy, text);
      return result;
    } catch (err) {
      // a full or read-only disk: say which file (the system's message says only `write`)
      throw nameFile(err, file);
    }
  }
}
