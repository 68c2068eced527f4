import { readPreferences, type Preferences, type PreferencesPatch, apiError } from '@kairos/contract';
import { NotFoundError } from '../../lib/errors';
import type { AuthRepo } from '../auth/auth-repo';
import { toUserDto } from '../auth/auth-service';

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: {
  repo: Pick<AuthRepo, 'findUserById' | 'updateUser' | 'mergePreferences'>;
}) {
  async function load(userId: string) {
    const user = await deps.repo.findUserById(userId);
    if (!user) throw new NotFoundError(...apiError('NOT_FOUND', { variant: 'user' }));
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
    async updateSettings(userId: string, patch: PreferencesPatch) {
      await load(userId);
      return readPreferences((await deps.repo.mergePreferences(userId, patch)).preferences);
    },
  };
}
