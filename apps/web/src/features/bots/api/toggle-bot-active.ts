import { type Bot, botAnswerSchema } from '@kairos/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../i18n/translate-message';
import { api, parseResults } from '../../../lib/api-client';
import { botQueryOptions } from './get-bot';
import { botsQueryOptions } from './get-bots';

/** Spec §7: the toggle sends PUT with `{ is_active }`. */
export async function setBotActive({ id, isActive }: { id: string; isActive: boolean }): Promise<Bot> {
  const body = await api.put<unknown>(`/api/bots/${encodeURIComponent(id)}`, { is_active: isActive });
  return parseResults(botAnswerSchema, body);
}

/**
 * Spec §4: the active switch updates the screen at once, then sends the PUT; on failure the
 * previous state comes back and a toast says why.
 */
export function useToggleBotActive() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const listKey = botsQueryOptions().queryKey;
  return useMutation({
    mutationFn: setBotActive,
    onMutate: async ({ id, isActive }) => {
      const detailKey = botQueryOptions(id).queryKey;
      // A list request in flight must not overwrite the optimistic value when it lands.
      await queryClient.cancelQueries({ queryKey: listKey, exact: true });
      await queryClient.cancelQueries({ queryKey: detailKey, exact: true });
      const previousList = queryClient.getQueryData(listKey);
      const previousBot = queryClient.getQueryData(detailKey);
      queryClient.setQueryData(listKey, (bots) =>
        bots?.map((bot) => (bot.id === id ? { ...bot, isActive } : bot)),
      );
      queryClient.setQueryData(detailKey, (bot) => (bot ? { ...bot, isActive } : bot));
      return { previousList, previousBot };
    },
    onError: (error, { id, isActive }, context) => {
      queryClient.setQueryData(listKey, context?.previousList);
      queryClient.setQueryData(botQueryOptions(id).queryKey, context?.previousBot);
      const name =
        context?.previousList?.find((bot) => bot.id === id)?.nickname ?? context?.previousBot?.nickname ?? '';
      toast.error(t(isActive ? 'bots.toggle.activateFailed' : 'bots.toggle.pauseFailed', { name }), {
        description: errorMessage(t, error),
      });
    },
    onSuccess: (bot) => {
      queryClient.setQueryData(listKey, (bots) => bots?.map((row) => (row.id === bot.id ? bot : row)));
      queryClient.setQueryData(botQueryOptions(bot.id).queryKey, bot);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}
