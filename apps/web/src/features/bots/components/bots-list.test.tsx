import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginAs, renderApp } from '../../../testing/render';
import { serverBot as contractBot } from '../../../testing/server-answers';

/** A server's bot as GET /api/bots sends it (camelCase, decimals as strings, the position in any case). */
function serverBot(overrides: Record<string, unknown> = {}) {
  return {
    ...contractBot({
      portfolioPercent: '25.00',
      leveragePercent: '300',
      monthlyGoalPercent: '5',
      goalAccumulatedProfitPercent: '2.5',
    }),
    position: 'LONG',
    ...overrides,
  };
}

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/**
 * fetch answering per "METHOD /path"; a handler may return a promise, so a test can hold a
 * request in flight and look at the screen meanwhile.
 */
function serve(
  handler: (
    call: Call,
  ) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }> | undefined,
) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call: Call = {
        method: init.method ?? 'GET',
        path: new URL(String(input), 'http://localhost').pathname,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      const reply = (await handler(call)) ?? { body: { success: true, results: [] } };
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return {
    calls,
    count: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path).length,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** The bots table (shown from 640 px; the phone's cards beside it are tested on their own). */
async function table() {
  return within(await screen.findByRole('table', { name: 'Bots' }, { timeout: 5000 }));
}

describe('Bots list', () => {
  it('reads results as an object with bots (spec §7) and shows position, strategy, account, allocation and goal', async () => {
    serve((call) =>
      call.path === '/api/bots' ? { body: { success: true, results: { bots: [serverBot()] } } } : undefined,
    );
    loginAs();
    renderApp('/bots');
    // The first render of the file also loads the lazy route modules.
    const link = await (await table()).findByRole('link', { name: 'BTC follower' }, { timeout: 5000 });
    const row = link.closest('tr') as HTMLElement;
    const cells = within(row);
    expect(cells.getByText('Trend BTC')).toBeTruthy();
    expect(cells.getByText('Paper main')).toBeTruthy();
    expect(cells.getByText('BTC/USDT')).toBeTruthy();
    expect(cells.getByText('25.00% · 3×')).toBeTruthy();
    expect(cells.getByText('Long')).toBeTruthy();
    expect(
      cells.getByRole('progressbar', { name: 'Monthly goal progress' }).getAttribute('aria-valuenow'),
    ).toBe('50');
    expect(cells.getByRole('switch', { name: 'Active: BTC follower' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    expect(screen.getByText('1 bot · 0 active')).toBeTruthy();
  });

  it('marks a bot on a testnet account “Testnet” beside its account, and a live one not', async () => {
    const practice = {
      id: 'acc-t',
      nickname: 'Bybit practice',
      exchange: 'bybit',
      usdtBalance: '500',
      sandbox: true,
    };
    serve((call) =>
      call.path === '/api/bots'
        ? {
            body: {
              success: true,
              results: [
                serverBot(),
                serverBot({ id: 'bot-2', nickname: 'ETH swing', tradingAccount: practice }),
              ],
            },
          }
        : undefined,
    );
    loginAs();
    renderApp('/bots');
    const rowOf = async (name: string) =>
      (await (await table()).findByRole('link', { name }, { timeout: 5000 })).closest('tr') as HTMLElement;
    const onTestnet = within(await rowOf('ETH swing'));
    expect(onTestnet.getByText('Bybit practice')).toBeTruthy();
    expect(onTestnet.getByText('Testnet')).toBeTruthy();
    expect(within(await rowOf('BTC follower')).queryByText('Testnet')).toBeNull();
  });

  it('is not fetched again within 15 seconds unless forced, and is after', async () => {
    const server = serve((call) =>
      call.path === '/api/bots' ? { body: { success: true, results: [serverBot()] } } : undefined,
    );
    loginAs();
    const { router } = renderApp('/bots');
    await (await table()).findByRole('link', { name: 'BTC follower' });
    expect(server.count('GET', '/api/bots')).toBe(1);

    await act(() => router.navigate('/accounts'));
    await screen.findByRole('heading', { name: 'Trading accounts', level: 1 });
    await act(() => router.navigate('/bots'));
    await (await table()).findByRole('link', { name: 'BTC follower' });
    expect(server.count('GET', '/api/bots'), 'back within 15 s: from the cache').toBe(1);

    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(server.count('GET', '/api/bots'), 'forced').toBe(2));

    const now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now + 16_000);
    await act(() => router.navigate('/accounts'));
    await screen.findByRole('heading', { name: 'Trading accounts', level: 1 });
    await act(() => router.navigate('/bots'));
    await waitFor(() => expect(server.count('GET', '/api/bots'), 'stale after 15 s').toBe(3));
  });

  it("says 'Failed to load bots' with the reason, and retries", async () => {
    let attempts = 0;
    serve((call) => {
      if (call.path !== '/api/bots') return undefined;
      attempts += 1;
      return attempts === 1 ? { status: 500 } : { body: { success: true, results: [serverBot()] } };
    });
    loginAs();
    renderApp('/bots');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load bots');
    expect(alert.textContent).toContain('HTTP error! status: 500');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await (await table()).findByRole('link', { name: 'BTC follower' })).toBeTruthy();
  });

  it("reads success: false as a failure, with 'Failed to load bots' when the server gives no reason", async () => {
    serve((call) => (call.path === '/api/bots' ? { body: { success: false, results: null } } : undefined));
    loginAs();
    renderApp('/bots');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load bots');
  });

  it('switches a bot on at once with PUT { is_active }, and keeps it when the server agrees', async () => {
    let answer: (reply: { body: unknown }) => void = () => undefined;
    let active = false;
    const server = serve((call) => {
      if (call.method === 'PUT') return new Promise((resolve) => (answer = resolve));
      if (call.path === '/api/bots')
        return { body: { success: true, results: [serverBot({ isActive: active })] } };
      return undefined;
    });
    loginAs();
    renderApp('/bots');
    const toggle = await (await table()).findByRole('switch', { name: 'Active: BTC follower' });
    await userEvent.click(toggle);

    expect(toggle.getAttribute('aria-checked'), 'optimistic: before the server answers').toBe('true');
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')).toBeTruthy());
    expect(server.calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/bots/bot-1',
      body: { is_active: true },
    });
    expect(window.location.pathname, 'the switch does not open the bot').toBe('/bots');

    active = true;
    await act(async () => answer({ body: { success: true, results: serverBot({ isActive: true }) } }));
    await waitFor(() => expect(screen.getByText('1 bot · 1 active')).toBeTruthy());
    expect(
      within(screen.getByRole('table'))
        .getByRole('switch', { name: 'Active: BTC follower' })
        .getAttribute('aria-checked'),
    ).toBe('true');
  });

  it('puts the switch back and says why when the PUT fails', async () => {
    let answer: (reply: { status: number; body: unknown }) => void = () => undefined;
    serve((call) => {
      if (call.method === 'PUT') return new Promise((resolve) => (answer = resolve));
      if (call.path === '/api/bots') return { body: { success: true, results: [serverBot()] } };
      return undefined;
    });
    loginAs();
    renderApp('/bots');
    const toggle = await (await table()).findByRole('switch', { name: 'Active: BTC follower' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');

    await act(async () =>
      answer({
        status: 422,
        body: { success: false, error: 'DOMAIN_RULE', message: 'This strategy is retired' },
      }),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('table'))
          .getByRole('switch', { name: 'Active: BTC follower' })
          .getAttribute('aria-checked'),
      ).toBe('false'),
    );
    const toast = await screen.findByText('Could not switch BTC follower on');
    expect(toast.parentElement?.textContent).toContain('This strategy is retired');
  });

  it('offers to connect an account first when there is none, else to create a bot', async () => {
    serve(() => undefined);
    loginAs();
    renderApp('/bots');
    expect(await screen.findByText('No bots yet')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Connect an account' })).getAttribute('href')).toBe(
      '/accounts',
    );
  });
});

describe('Bot detail', () => {
  const practice = {
    id: 'acc-t',
    nickname: 'Bybit practice',
    exchange: 'bybit',
    usdtBalance: '500',
    sandbox: true,
  };

  it.each([
    ['a testnet', practice, 1],
    ['a live', { ...practice, nickname: 'Bybit main', sandbox: false }, 0],
  ])('marks the bot “Testnet” only when it trades on %s account', async (_, tradingAccount, badges) => {
    serve((call) =>
      call.path === '/api/bots/bot-1'
        ? { body: { success: true, results: serverBot({ tradingAccount }) } }
        : undefined,
    );
    loginAs();
    renderApp('/bot/bot-1');
    const account = (await screen.findByText(tradingAccount.nickname, {}, { timeout: 5000 })).closest(
      'div',
    ) as HTMLElement;
    // Beside the account's figures, and in the title: everything on this screen is that account's.
    expect(within(account).queryAllByText('Testnet')).toHaveLength(badges);
    expect(within(screen.getByRole('heading', { level: 1 })).queryAllByText('Testnet')).toHaveLength(badges);
  });

  it('gives phones one card a bot: position, size, goal, live or paused, and its switch (issue 21)', async () => {
    const server = serve((call) =>
      call.path === '/api/bots' && call.method === 'GET'
        ? { body: { success: true, results: [serverBot()] } }
        : undefined,
    );
    loginAs();
    renderApp('/bots');
    const cards = within(await screen.findByRole('list', { name: 'Bots' }, { timeout: 5000 }));
    const card = within(cards.getByRole('article', { name: 'BTC follower' }));
    expect(card.getByRole('link', { name: 'BTC follower' }).getAttribute('href')).toBe('/bot/bot-1');
    expect(card.getByText('Long')).toBeTruthy();
    expect(card.getByText('25.00% · 3×')).toBeTruthy();
    expect(card.getByText('Trend BTC')).toBeTruthy();
    expect(card.getByText('Paused')).toBeTruthy();
    expect(card.getByRole('progressbar', { name: 'Monthly goal progress' })).toBeTruthy();

    // A finger that lands on the switch and slides away is a swipe, not a switch.
    const toggle = card.getByRole('switch', { name: 'Active: BTC follower' });
    const user = userEvent.setup();
    await user.pointer([
      { keys: '[TouchA>]', target: toggle, coords: { clientX: 300, clientY: 200 } },
      { pointerName: 'TouchA', target: toggle, coords: { clientX: 240, clientY: 202 } },
      { keys: '[/TouchA]', target: toggle, coords: { clientX: 240, clientY: 202 } },
    ]);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(server.count('PUT', '/api/bots/bot-1')).toBe(0);

    // A tap switches it.
    await user.pointer([
      { keys: '[TouchA>]', target: toggle, coords: { clientX: 300, clientY: 200 } },
      { keys: '[/TouchA]', target: toggle, coords: { clientX: 302, clientY: 201 } },
    ]);
    await waitFor(() => expect(server.count('PUT', '/api/bots/bot-1')).toBe(1));
  });
});
