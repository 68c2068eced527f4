import { DEFAULT_PREFERENCES, preferencesSchema, type Preferences } from '@kairos/contract';
import { NotFoundError } from '../../lib/errors';
import type { AuthRepo } from '../auth/auth-repo';
import { toUserDto } from '../auth/auth-service';

/** Stored preferences merged over the defaults, so older rows gain new settings. */
export function readPreferences(stored: unknown): Preferences {
  const raw = (stored ?? {}) as Partial<Preferences>;
  const merged = {
    ...DEFAULT_PREFERENCES,
    ...raw,
    notifications: { ...DEFAULT_PREFERENCES.notifications, ...(raw.notifications ?? {}) },
  };
  const parsed = preferencesSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_PREFERENCES;
}

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: {
  repo: Pick<AuthRepo, 'findUserById' | 'updateUser' | 'mergePreferences'>;
}) {
  async function load(userId: string) {
    const user = await deps.repo.findUserById(userId);
    if (!user) throw new NotFoundError('User not found');
    return user;
  }
  return {
    async profile(userId: string) {
      const user = await load(userId);
      return { ...toUserDto(user), preferences: readPreferences(user.preferences) };
    },
    async updateProfile(userId: string, input: { displayName?: string | null }) {
      await load(userId);
      const updated = await deps.repo.updateUser(userId, {
        ...(input.displayName !== undefined ? { displayName: input.displayName || null } : {}),
      });
      return { ...toUserDto(updated), preferences: readPreferences(updated.preferences) };
    },
    async settings(userId: string): Promise<Preferences> {
      return readPreferences((await load(userId)).preferences);
    },
    async updateSettings(
      userId: string,
      patch: Partial<Omit<Preferences, 'notifications'>> & {
        notifications?: Partial<Preferences['notifications']>;
      },
    ) {
      await load(userId);
      return readPreferences((await deps.repo.mergePreferences(userId, patch)).preferences);
    },
  };
}
