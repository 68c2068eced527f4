import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n';
import { mockFetch } from '../../../testing/fetch-mock';
import { loginAs, renderApp } from '../../../testing/render';
import { serverTradingAccount } from '../../../testing/server-answers';
import {
  connectAccountFormSchema,
  emptyConnectAccountForm,
  toCreateAccountBody,
} from '../api/create-trading-account';
import type { Venue } from '../api/get-exchanges';
import { editAccountFormSchema, toUpdateAccountBody } from '../api/update-trading-account';

/** The accounts' table (from 640 px; below it the same accounts are cards). */
async function accountsTable() {
  return within(await screen.findByRole('table', { name: 'Trading accounts' }, { timeout: 5000 }));
}

const venues: Venue[] = [
  {
    id: 'binance',
    name: 'Binance',
    marketTypes: ['spot', 'future'],
    sandbox: true,
    sandboxMarketTypes: ['spot', 'future'],
    sandboxKind: { spot: 'testnet', future: 'demo' },
    needsPassphrase: false,
  },
  {
    id: 'paper',
    name: 'Paper trading (simulated)',
    marketTypes: ['spot', 'future'],
    sandbox: false,
    sandboxMarketTypes: [],
    sandboxKind: {},
    needsPassphrase: false,
  },
  {
    id: 'okx',
    name: 'OKX',
    marketTypes: ['spot'],
    sandbox: true,
    sandboxMarketTypes: ['spot'],
    sandboxKind: { spot: 'testnet' },
    needsPassphrase: true,
  },
  {
    id: 'bitget',
    name: 'Bitget',
    marketTypes: ['spot', 'future'],
    sandbox: false,
    sandboxMarketTypes: [],
    sandboxKind: {},
    needsPassphrase: true,
  },
];

function account(overrides: Record<string, unknown> = {}) {
  return {
    id: 'acc-1',
    nickname: 'Binance main',
    exchange: 'binance',
    marketType: 'spot',
    sandbox: false,
    apiKeyMask: 'abcd…wxyz',
    usdtBalance: '1234.5',
    balanceUpdatedAt: '2026-01-02T10:00:00.000Z',
    status: 'active',
    lastError: null,
    withdrawRiskAcknowledgedAt: null,
    botCount: 2,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  };
}

const messagesOf = (result: ReturnType<typeof connectAccountFormSchema.safeParse>) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('connect form rules (spec §5)', () => {
  it('needs a nickname and a valid starting balance for paper, and no keys', () => {
    expect(
      messagesOf(connectAccountFormSchema.safeParse({ ...emptyConnectAccountForm, startingBalance: 'ten' })),
    ).toEqual({
      nickname: 'This field is required',
      startingBalance: 'Please enter a valid amount',
    });
    expect(
      messagesOf(
        connectAccountFormSchema.safeParse({
          ...emptyConnectAccountForm,
          nickname: 'P',
          startingBalance: '',
        }),
      ),
    ).toEqual({ startingBalance: 'This field is required' });
    expect(
      messagesOf(
        connectAccountFormSchema.safeParse({
          ...emptyConnectAccountForm,
          nickname: 'P',
          startingBalance: '2000000000000',
        }),
      ),
    ).toEqual({ startingBalance: 'Starting balance must be between 0 and 1,000,000,000,000' });
    const paper = {
      ...emptyConnectAccountForm,
      nickname: ' Paper ',
      startingBalance: '2500,5',
      apiKey: 'stale',
    };
    expect(connectAccountFormSchema.safeParse(paper).success).toBe(true);
    expect(toCreateAccountBody(paper)).toEqual({
      nickname: 'Paper',
      exchange: 'paper',
      marketType: 'spot',
      startingBalance: '2500.5',
    });
  });

  it('asks to confirm the key cannot withdraw when the venue does not say, and sends the confirmation', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.method === 'POST') {
        const body = request.body as { withdrawRiskAcknowledged?: boolean };
        return body.withdrawRiskAcknowledged
          ? {
              status: 201,
              body: { success: true, results: serverTradingAccount({ nickname: 'OKX', exchange: 'okx' }) },
            }
          : {
              status: 422,
              body: {
                success: false,
                error: 'WITHDRAW_PERMISSION_UNKNOWN',
                message: 'okx does not report whether this key can withdraw',
              },
            };
      }
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Connect an account' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Connect a trading account' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Venue'), 'okx');
    await userEvent.type(within(dialog).getByLabelText('Nickname'), 'OKX');
    await userEvent.type(within(dialog).getByLabelText('API key'), 'k');
    await userEvent.type(within(dialog).getByLabelText('API secret'), 's');
    await userEvent.type(within(dialog).getByLabelText('API passphrase'), 'p');
    expect(within(dialog).queryByRole('switch', { name: /cannot withdraw/ })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const confirm = await within(dialog).findByRole('switch', {
      name: 'I have checked that this key cannot withdraw funds',
    });
    await userEvent.click(confirm);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Connect a trading account' })).toBeNull(),
    );
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body).toMatchObject({ exchange: 'okx', withdrawRiskAcknowledged: true });
    expect(posts[0]!.body).not.toHaveProperty('withdrawRiskAcknowledged');
  });

  it('needs key and secret for a real venue, and the passphrase where the venue asks for one', () => {
    const real = { ...emptyConnectAccountForm, nickname: 'OKX', exchange: 'okx', needsPassphrase: true };
    expect(messagesOf(connectAccountFormSchema.safeParse(real))).toEqual({
      apiKey: 'This field is required',
      apiSecret: 'This field is required',
      passphrase: 'This field is required',
    });
    const filled = { ...real, apiKey: ' key ', apiSecret: 'secret', passphrase: 'phrase', sandbox: true };
    expect(connectAccountFormSchema.safeParse(filled).success).toBe(true);
    expect(toCreateAccountBody(filled)).toEqual({
      nickname: 'OKX',
      exchange: 'okx',
      marketType: 'spot',
      apiKey: 'key',
      apiSecret: 'secret',
      passphrase: 'phrase',
      sandbox: true,
    });
  });

  it('rotates keys only as a pair, and sends only what changed', () => {
    const current = account() as Parameters<typeof toUpdateAccountBody>[1];
    const form = {
      nickname: 'Binance main',
      sandbox: false,
      rotate: true,
      apiKey: 'new-key',
      apiSecret: '',
      passphrase: '',
      needsPassphrase: false,
    };
    expect(editAccountFormSchema.safeParse(form).error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'apiSecret',
    ]);
    expect(toUpdateAccountBody({ ...form, rotate: false, nickname: 'Renamed' }, current)).toEqual({
      nickname: 'Renamed',
    });
    expect(toUpdateAccountBody({ ...form, apiSecret: 'new-secret' }, current)).toEqual({
      apiKey: 'new-key',
      apiSecret: 'new-secret',
    });
    expect(toUpdateAccountBody({ ...form, rotate: false, sandbox: true }, current)).toEqual({
      sandbox: true,
    });
  });
});

describe('TradingAccounts screen', () => {
  it('invites to connect a paper account, validates the form, and lists the new account with its balance', async () => {
    const created = account({
      id: 'acc-p',
      nickname: 'Paper main',
      exchange: 'paper',
      apiKeyMask: null,
      usdtBalance: '25000',
      botCount: 0,
    });
    let list: unknown[] = [];
    const { requests } = mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET') {
        return { body: { success: true, results: list } };
      }
      if (request.path === '/api/trading-accounts' && request.method === 'POST') {
        list = [created];
        return { status: 201, body: { success: true, results: created } };
      }
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Connect a paper account' }, { timeout: 5000 }),
    );

    const dialog = await screen.findByRole('dialog', { name: 'Connect a trading account' });
    const venue = within(dialog).getByLabelText('Venue') as HTMLSelectElement;
    expect(venue.value, 'paper first').toBe('paper');
    expect([...venue.options].map((option) => option.value)).toEqual(['paper', 'binance', 'okx', 'bitget']);
    expect(within(dialog).queryByLabelText('API key')).toBeNull();

    const balance = within(dialog).getByLabelText('Starting balance');
    await userEvent.clear(balance);
    await userEvent.type(balance, 'lots');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(within(dialog).getByText('Please enter a valid amount')).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    await userEvent.type(within(dialog).getByLabelText('Nickname'), 'Paper main');
    await userEvent.clear(balance);
    await userEvent.type(balance, '25000');
    // A double click, both clicks before the busy button is rendered, connects one account (issue 21).
    const connect = within(dialog).getByRole('button', { name: 'Connect' });
    fireEvent.click(connect);
    fireEvent.click(connect);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      nickname: 'Paper main',
      exchange: 'paper',
      marketType: 'spot',
      startingBalance: '25000',
    });
    const row = (
      await (await accountsTable()).findByText('Paper main', { selector: 'span.font-medium' })
    ).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('25,000.00');
    expect(row.textContent).toContain('No keys (simulated)');
  });

  it('asks a real venue for its keys, and shows the venue’s reason when it refuses them', async () => {
    mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.method === 'POST') {
        return {
          status: 422,
          body: {
            success: false,
            error: 'EXCHANGE_AUTH_FAILED',
            message: 'okx refused the API key: Invalid sign',
          },
        };
      }
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Connect an account' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Connect a trading account' });
    await userEvent.selectOptions(within(dialog).getByLabelText('Venue'), 'okx');
    await userEvent.type(within(dialog).getByLabelText('Nickname'), 'OKX');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(await within(dialog).findAllByText('This field is required')).toHaveLength(3);
    expect(within(dialog).getByRole('switch', { name: 'Testnet' })).toBeTruthy();

    await userEvent.type(within(dialog).getByLabelText('API key'), 'k');
    await userEvent.type(within(dialog).getByLabelText('API secret'), 's');
    await userEvent.type(within(dialog).getByLabelText('API passphrase'), 'p');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'okx refused the API key: Invalid sign',
    );
  });

  it('says per venue and market whether a testnet or demo trading exists, and offers Testnet only there', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.method === 'POST') return { status: 201, body: { success: true, results: account() } };
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Connect an account' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Connect a trading account' });
    // Paper is simulated anyway: nothing to say, no switch.
    expect(within(dialog).queryByTestId('testnet-availability')).toBeNull();
    expect(within(dialog).queryByRole('switch', { name: 'Testnet' })).toBeNull();

    const note = () => within(dialog).getByTestId('testnet-availability').textContent;
    const testnet = () => within(dialog).getByRole('switch', { name: 'Testnet' }) as HTMLButtonElement;
    await userEvent.selectOptions(within(dialog).getByLabelText('Venue'), 'binance');
    expect(note()).toBe(
      'Binance has a testnet for Spot: turn on “Testnet” and use testnet keys (no real funds).',
    );
    expect(testnet().disabled).toBe(false);
    expect(dialog.textContent).toContain('Testnet keys: nothing real is at stake.');

    await userEvent.selectOptions(within(dialog).getByLabelText('Market'), 'future');
    expect(note()).toBe(
      'Binance has demo trading for Futures: turn on “Testnet” and use demo-trading keys (no real funds).',
    );
    expect(dialog.textContent).toContain('Demo-trading keys: nothing real is at stake.');
    await userEvent.click(testnet());
    expect(testnet().getAttribute('aria-checked')).toBe('true');

    // A venue with none: said plainly, and the switch is off and cannot be turned on.
    await userEvent.selectOptions(within(dialog).getByLabelText('Venue'), 'bitget');
    expect(note()).toBe('Bitget has no testnet or demo trading for Spot: these keys trade real funds.');
    expect(testnet().disabled).toBe(true);
    expect(testnet().getAttribute('aria-checked')).toBe('false');
    expect(dialog.textContent).toContain('Unavailable: Bitget has no testnet for Spot.');
    await userEvent.click(testnet());
    expect(testnet().getAttribute('aria-checked')).toBe('false');

    await userEvent.type(within(dialog).getByLabelText('Nickname'), 'Bitget');
    await userEvent.type(within(dialog).getByLabelText('API key'), 'k');
    await userEvent.type(within(dialog).getByLabelText('API secret'), 's');
    await userEvent.type(within(dialog).getByLabelText('API passphrase'), 'p');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(requests.find((request) => request.method === 'POST')).toBeTruthy());
    expect(requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      exchange: 'bitget',
      marketType: 'spot',
      sandbox: false,
    });
  });

  it('marks a testnet account “Testnet” in the list, and a live one not', async () => {
    mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET') {
        return {
          body: {
            success: true,
            results: [account(), account({ id: 'acc-t', nickname: 'Binance practice', sandbox: true })],
          },
        };
      }
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    const practice = (
      await (await accountsTable()).findByText('Binance practice', {}, { timeout: 5000 })
    ).closest('tr') as HTMLElement;
    expect(within(practice).getByText('Testnet')).toBeTruthy();
    const live = within(screen.getByRole('table', { name: 'Trading accounts' }))
      .getByText('Binance main')
      .closest('tr') as HTMLElement;
    expect(within(live).queryByText('Testnet')).toBeNull();
  });

  it('shows on an account that its owner confirmed its key cannot withdraw, and when (issue 20)', async () => {
    mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET') {
        return {
          body: {
            success: true,
            results: [
              account({
                id: 'acc-a',
                nickname: 'Unreported',
                withdrawRiskAcknowledgedAt: '2026-01-05T09:30:00.000Z',
              }),
              account({ id: 'acc-r', nickname: 'Reported' }),
            ],
          },
        };
      }
      return undefined;
    });
    loginAs();
    renderApp('/accounts');
    const row = (await (await accountsTable()).findByText('Unreported', {}, { timeout: 5000 })).closest(
      'tr',
    ) as HTMLElement;
    const note = within(row).getByText(/You confirmed it cannot withdraw/);
    expect(note.textContent).toMatch(/Jan 5, 2026/);
    const reported = within(screen.getByRole('table', { name: 'Trading accounts' }))
      .getByText('Reported')
      .closest('tr') as HTMLElement;
    expect(within(reported).queryByText(/confirmed it cannot withdraw/)).toBeNull();
  });

  it('shows venue, masked key, balance, bots and errors; deletes with its bots only when told to', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET') {
        return {
          body: {
            success: true,
            results: [
              account(),
              account({
                id: 'acc-2',
                nickname: 'Broken',
                status: 'error',
                lastError: 'Invalid API key',
                botCount: 0,
              }),
            ],
          },
        };
      }
      return request.method === 'DELETE'
        ? { body: { success: true, message: 'Trading account deleted' } }
        : undefined;
    });
    loginAs();
    renderApp('/accounts');
    const row = (await (await accountsTable()).findByText('Binance main', {}, { timeout: 5000 })).closest(
      'tr',
    ) as HTMLElement;
    expect(within(row).getByText('Binance')).toBeTruthy();
    expect(within(row).getByText('abcd…wxyz')).toBeTruthy();
    expect(row.textContent).toContain('1,234.50');
    expect(within(row).getByText('Connected')).toBeTruthy();
    const broken = within(screen.getByRole('table', { name: 'Trading accounts' }))
      .getByText('Broken')
      .closest('tr') as HTMLElement;
    expect(within(broken).getByText('Invalid API key')).toBeTruthy();
    // A phone's card (issue 21): the same figures, status and actions, nothing off to the side.
    const card = within(screen.getByRole('list', { name: 'Trading accounts' })).getByRole('article', {
      name: 'Binance main',
    });
    expect(card.textContent).toMatch(/Binance.*Connected.*USDT balance1,234\.50 USDT.*Bots2.*abcd…wxyz/);
    expect(within(card).getByRole('button', { name: 'Delete Binance main' })).toBeTruthy();

    await userEvent.click(within(row).getByRole('button', { name: 'Delete Binance main' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Binance main?' });
    expect(confirm.textContent).toContain('2 bots trade on this account');
    const remove = within(confirm).getByRole('button', {
      name: 'Delete account and 2 bots',
    }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    await userEvent.click(within(confirm).getByRole('checkbox', { name: 'Also delete its 2 bots' }));
    await userEvent.click(remove);
    await waitFor(() => expect(requests.find((request) => request.method === 'DELETE')).toBeTruthy());
    expect(requests.find((request) => request.method === 'DELETE')?.url).toBe(
      '/api/trading-accounts/acc-1?bots=delete',
    );
  });
  it('offers to delete the bots too when the server refuses because of bots the list did not count', async () => {
    const { requests } = mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET') {
        return { body: { success: true, results: [account({ botCount: 0 })] } };
      }
      if (request.method === 'DELETE' && request.url.endsWith('bots=refuse')) {
        return {
          status: 409,
          body: { success: false, error: 'ACCOUNT_HAS_BOTS', message: '1 bot trades on this account.' },
        };
      }
      return request.method === 'DELETE'
        ? { body: { success: true, message: 'Trading account deleted' } }
        : undefined;
    });
    loginAs();
    renderApp('/accounts');
    await userEvent.click(
      await (await accountsTable()).findByRole('button', { name: 'Delete Binance main' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Binance main?' });
    expect(within(confirm).queryByRole('checkbox')).toBeNull();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete account' }));
    expect((await within(confirm).findByRole('alert')).textContent).toContain(
      '1 bot trades on this account.',
    );
    await userEvent.click(within(confirm).getByRole('checkbox', { name: 'Also delete its bots' }));
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete account and bots' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.url)).toEqual([
      '/api/trading-accounts/acc-1?bots=refuse',
      '/api/trading-accounts/acc-1?bots=delete',
    ]);
  });
});

describe('TradingAccounts: why an account failed, in the user’s language (issue 21)', () => {
  /** The accounts screen in `language` with one account in error; the error its status cell says. */
  async function errorShown(language: 'fr-FR' | 'en-US', overrides: Record<string, unknown>) {
    mockFetch((request) => {
      if (request.path === '/market/exchanges') return { body: { success: true, results: venues } };
      if (request.path === '/api/trading-accounts' && request.method === 'GET')
        return {
          body: {
            success: true,
            results: [account({ nickname: 'Broken', status: 'error', ...overrides })],
          },
        };
      return undefined;
    });
    await changeLanguage(language);
    loginAs();
    renderApp('/accounts');
    const name = language === 'fr-FR' ? 'Comptes de trading' : 'Trading accounts';
    const table = within(await screen.findByRole('table', { name }, { timeout: 5000 }));
    const row = (await table.findByText('Broken', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    const cells = within(row).getAllByRole('cell');
    const status = cells[cells.length - 2]!;
    expect(within(status).getByText(language === 'fr-FR' ? 'Erreur' : 'Error')).toBeTruthy();
    // Below the status badge.
    return status.firstElementChild!.lastElementChild!.textContent;
  }

  const RATE_LIMITED = {
    lastError: 'Binance asked Kairos to wait 5 s before calling it again',
    lastErrorCode: 'EXCHANGE_RATE_LIMITED',
    lastErrorParams: { variant: 'wait', exchange: 'Binance', seconds: 5 },
  };

  it('says a coded error from its code and params in French, the wait with its unit on its line', async () => {
    expect(await errorShown('fr-FR', RATE_LIMITED)).toBe(
      'Binance a demandé à Kairos d’attendre 5\u00a0s avant de l’appeler à nouveau',
    );
  });

  it('says the venue’s refusal of the key in French, the venue’s own words as they came', async () => {
    expect(
      await errorShown('fr-FR', {
        lastError: 'Bybit refused the API key: API key is invalid.',
        lastErrorCode: 'EXCHANGE_AUTH_FAILED',
        lastErrorParams: { exchange: 'Bybit', reason: 'API key is invalid.' },
      }),
    ).toBe('Bybit a refusé la clé API\u00a0: API key is invalid.');
  });

  it('says stored keys that do not open in French', async () => {
    expect(
      await errorShown('fr-FR', {
        lastError: 'The API keys stored for this account cannot be opened: enter them again',
        lastErrorCode: 'ACCOUNT_KEYS_UNREADABLE',
        lastErrorParams: null,
      }),
    ).toBe(
      'Les clés API enregistrées pour ce compte ne peuvent pas être ouvertes\u00a0: saisissez-les à nouveau',
    );
  });

  it('says a coded error in English as the server wrote it', async () => {
    expect(await errorShown('en-US', RATE_LIMITED)).toBe(
      'Binance asked Kairos to wait 5 s before calling it again',
    );
  });

  it('shows an error written before errors had codes as the server wrote it', async () => {
    expect(
      await errorShown('fr-FR', { lastError: 'bybit {"retCode":10003,"retMsg":"API key is invalid."}' }),
    ).toBe('bybit {"retCode":10003,"retMsg":"API key is invalid."}');
  });
});
