import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialogHost, confirmAction } from './confirm-dialog';
import { PnlText } from './pnl-text';
import { queryState } from './states';
import { STATUSES, STATUS_STYLES, StatusBadge } from './status-badge';
import { type Column, Table } from './table';
import { TableOrCards } from './table-or-cards';
import { Toaster, toast } from './toast';

describe('StatusBadge', () => {
  it.each(STATUSES)('shows %s with a label and a glyph, never colour alone', (status) => {
    const { container } = render(<StatusBadge status={status} />);
    expect(container.textContent).toContain(STATUS_STYLES[status].glyph);
    expect(container.textContent?.replace(STATUS_STYLES[status].glyph, '').trim()).not.toBe('');
  });

  it('covers every status of the app', () => {
    expect(STATUSES).toEqual([
      'queued',
      'in_progress',
      'succeeded',
      'failed',
      'dead',
      'open',
      'closed',
      'placed',
      'filled',
      'cancelled',
      'waiting',
    ]);
  });
});

describe('PnlText', () => {
  it('shows the sign and an arrow', () => {
    const { container, rerender } = render(<PnlText value="12.5" currency="USD" />);
    expect(container.textContent).toBe('▲Gain +$12.50');
    rerender(<PnlText value={-3} currency="USD" />);
    expect(container.textContent).toBe('▼Loss -$3.00');
    rerender(<PnlText value="4.2" kind="percent" />);
    expect(container.textContent).toBe('▲Gain +4.20%');
  });
});

describe('Table', () => {
  type PriceRow = { id: string; price: number };
  const rows: PriceRow[] = Array.from({ length: 3 }, (_, index) => ({
    id: String(index),
    price: 100 + index,
  }));
  const columns: Column<PriceRow>[] = [
    { key: 'id', header: 'Id', cell: (row) => row.id },
    { key: 'price', header: 'Price', numeric: true, cell: (row) => row.price },
  ];

  it('right-aligns numbers with tabular figures and pages through rows', async () => {
    const onPageChange = vi.fn();
    render(
      <Table
        caption="Prices"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        pagination={{ page: 1, pageSize: 3, total: 7, onPageChange }}
      />,
    );
    const priceHeader = screen.getByRole('columnheader', { name: 'Price' });
    expect(priceHeader.className).toContain('text-right');
    expect(priceHeader.className).toContain('sticky');
    expect(screen.getByRole('cell', { name: '100' }).className).toContain('num');
    expect(screen.getByText('1–3 of 7')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('has loading, empty and error states', () => {
    const { rerender } = render(
      <Table caption="Prices" columns={columns} rows={undefined} rowKey={(row) => row.id} loading />,
    );
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    rerender(
      <Table
        caption="Prices"
        columns={columns}
        rows={[]}
        rowKey={(row) => row.id}
        empty={<p>No prices yet</p>}
      />,
    );
    expect(screen.getByText('No prices yet')).toBeTruthy();
    rerender(
      <Table
        caption="Prices"
        columns={columns}
        rows={[]}
        rowKey={(row) => row.id}
        error={new Error('HTTP error! status: 500')}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('HTTP error! status: 500');
  });

  it('draws no frame of its own inside a card (flush), its own otherwise', () => {
    // jsdom lays nothing out: the frame is read from the table box's classes.
    const list = (flush: boolean) => (
      <TableOrCards
        caption="Prices"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        card={(row) => row.id}
        empty={null}
        flush={flush}
      />
    );
    const frame = () => screen.getByRole('table', { name: 'Prices' }).closest('.overflow-hidden')!.className;
    const { rerender } = render(list(false));
    expect(frame()).toMatch(/\brounded-lg\b.*\bborder\b/);
    rerender(list(true));
    expect(frame()).not.toMatch(/\brounded|\bborder\b/);
  });

  it("takes a query's loading, error and retry from queryState", async () => {
    const refetch = vi.fn(() => Promise.resolve());
    const query = { isPending: false, isError: true, error: new Error('HTTP error! status: 503'), refetch };
    const table = (state: typeof query) => (
      <Table caption="Prices" columns={columns} rows={rows} rowKey={(row) => row.id} {...queryState(state)} />
    );
    const { rerender } = render(table(query));
    expect(screen.getByRole('alert').textContent).toContain('HTTP error! status: 503');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);
    // An error the query no longer reports as its state (it succeeded since) is not shown.
    rerender(table({ ...query, isError: false }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('cell', { name: '100' })).toBeTruthy();
    rerender(table({ ...query, isPending: true, isError: false }));
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
  });
});

describe('confirmation and toasts', () => {
  it('resolves a confirmation with the user answer', async () => {
    render(<ConfirmDialogHost />);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmAction({
        title: 'Close all positions?',
        message: 'This cannot be undone.',
        confirmLabel: 'Close positions',
        tone: 'danger',
      });
    });
    const dialog = await screen.findByRole('alertdialog', { name: 'Close all positions?' });
    expect(dialog.textContent).toContain('This cannot be undone.');
    await userEvent.click(screen.getByRole('button', { name: 'Close positions' }));
    await expect(answer).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();

    act(() => {
      answer = confirmAction({ title: 'Cancel orders?', message: 'Open orders are cancelled.' });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
  });

  it('shows and dismisses toasts', async () => {
    render(<Toaster />);
    act(() => {
      toast.success('Bot saved');
    });
    expect(screen.getByRole('status').textContent).toContain('Bot saved');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Bot saved')).toBeNull();
  });
});
