// serve's options for failed logins (docs/security.md): the limits per client address and per
// login name, and whether an unknown login and a wrong password answer alike.
import type { AuthOptions } from '../http/auth.ts';
import { DEFAULT_LOGIN_LIMITS } from '../security/login-limits.ts';
import { CliError, EXIT_USAGE, type CliIo } from './common.ts';
import { pick } from './cluster-options.ts';

export const LOGIN_OPTIONS = {
  'login-limit': { type: 'string' },
  'login-user-limit': { type: 'string' },
  'login-errors': { type: 'string' },
} as const;

const { perClient, perLogin } = DEFAULT_LOGIN_LIMITS;

export const LOGIN_USAGE = `  --login-limit N    CALENDAR_LOGIN_LIMIT  failed logins per client address per minute, then 429
                                           with Retry-After; 0 turns the limit off (default ${perClient})
  --login-user-limit N  CALENDAR_LOGIN_USER_LIMIT  failed logins per login name per minute, from all
                                           addresses together; 0 turns it off (default ${perLogin})
  --login-errors E   CALENDAR_LOGIN_ERRORS  wordpress: an unknown login and a wrong password answer
                                           differently, as WordPress does (default); uniform: alike
`;

/** The login options from the command line (over the environment); undefined when none is set. */
export function resolveLoginOptions(values: Record<string, unknown>, io: CliIo): AuthOptions | undefined {
  const count = (option: string, env: string): number | undefined => {
    const v = pick(values, io, option, env);
    if (v === undefined) return undefined;
    if (!/^\d{1,9}$/.test(v.value.trim())) {
      throw new CliError(`${v.from}: expected a whole number of failed logins (0: no limit), got '${v.value}'`, EXIT_USAGE);
    }
    return Number(v.value);
  };
  const perClient = count('login-limit', 'CALENDAR_LOGIN_LIMIT');
  const perLogin = count('login-user-limit', 'CALENDAR_LOGIN_USER_LIMIT');
  const errors = pick(values, io, 'login-errors', 'CALENDAR_LOGIN_ERRORS');
  if (errors && errors.value !== 'wordpress' && errors.value !== 'uniform') {
    throw new CliError(`${errors.from}: expected wordpress or uniform, got '${errors.value}'`, EXIT_USAGE);
  }
  if (perClient === undefined && perLogin === undefined && !errors) return undefined;
  return {
    loginLimits: { ...(perClient !== undefined ? { perClient } : {}), ...(perLogin !== undefined ? { perLogin } : {}) },
    ...(errors ? { loginErrors: errors.value as 'wordpress' | 'uniform' } : {}),
  };
}
