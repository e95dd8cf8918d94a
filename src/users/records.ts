// The users as DIR/users.json stores them: `{ version, nextId, users: [{ id, login, role, password,
// created }] }`, `nextId` only growing so that a removed user's id is never handed out again;
// and the checks of a login and a role.
import { ROLES, type Role, type User } from '../api/wordpress/types.ts';

export const USERS_FILE = 'users.json';

/** WordPress's user_login column is 60 characters; sanitize_user keeps [A-Za-z0-9 _.@-], we also drop spaces. */
const LOGIN_PATTERN = /^[A-Za-z0-9_.@-]+$/;
const LOGIN_MAX = 60;

export interface StoredUser extends User {
  password: string;
  created: string;
}

export interface UsersFile {
  version: 1;
  nextId: number;
  users: StoredUser[];
}

/** A user-facing mistake (bad login, unknown role, no such user). The CLI prints the message alone. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function checkLogin(login: string): void {
  if (typeof login !== 'string' || login.length === 0) throw new UserError('invalid login: it is empty');
  if (login.length > LOGIN_MAX)
    throw new UserError(`invalid login: at most ${LOGIN_MAX} characters, got ${login.length}`);
  if (!LOGIN_PATTERN.test(login)) {
    throw new UserError(`invalid login "${login}": use letters, digits and _ . @ - only (no spaces)`);
  }
}

export function checkRole(role: string): asserts role is Role {
  if (!isRole(role)) throw new UserError(`unknown role "${role}": expected one of ${ROLES.join(', ')}`);
}

export function emptyFile(): UsersFile {
  return { version: 1, nextId: 1, users: [] };
}

/** A users file's text ('' when there is none yet: no users). */
export function readText(text: string, where: string): UsersFile {
  return text === '' ? emptyFile() : parseFile(text, where);
}

/** The text a users file is stored as. */
export function fileText(data: UsersFile): string {
  return JSON.stringify(data, null, 2) + '\n';
}

function parseFile(text: string, file: string): UsersFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const d = data as Partial<UsersFile>;
  if (!d || typeof d !== 'object' || !Array.isArray(d.users)) throw new Error(`${file}: expected {"users": [...]}`);
  const users: StoredUser[] = [];
  let maxId = 0;
  for (const [i, u] of d.users.entries()) {
    if (
      !u ||
      typeof u !== 'object' ||
      !Number.isInteger(u.id) ||
      u.id <= 0 ||
      typeof u.login !== 'string' ||
      typeof u.password !== 'string' ||
      !isRole(String(u.role))
    ) {
      throw new Error(
        `${file}: user #${i} is malformed (needs a positive integer id, a login, a known role and a password hash)`,
      );
    }
    users.push({ id: u.id, login: u.login, role: u.role, password: u.password, created: String(u.created ?? '') });
    maxId = Math.max(maxId, u.id);
  }
  users.sort((a, b) => a.id - b.id);
  const nextId = Number.isInteger(d.nextId) && (d.nextId as number) > maxId ? (d.nextId as number) : maxId + 1;
  return { version: 1, nextId, users };
}

/** A new user with the next id (ids are never reused). */
export function pushUser(data: UsersFile, login: string, role: Role, stored: string): StoredUser {
  const u: StoredUser = { id: data.nextId, login, role, password: stored, created: new Date().toISOString() };
  data.nextId += 1;
  data.users.push(u);
  return u;
}

export function publicUser(u: StoredUser): User {
  return { id: u.id, login: u.login, role: u.role };
}
