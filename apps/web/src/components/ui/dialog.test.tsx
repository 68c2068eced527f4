import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { Dialog } from './dialog';

/** A page with a button that opens a dialog holding `content`, closed by its footer's Cancel. */
function Page({ content, footer = true }: { content?: ReactNode; footer?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <Button onClick={() => setOpen(true)}>Open the dialog</Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Rename"
        footer={
          footer ? (
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button>Save</Button>
            </>
          ) : undefined
        }
      >
        {content}
      </Dialog>
    </>
  );
}

async function openIt() {
  const trigger = screen.getByRole('button', { name: 'Open the dialog' });
  await userEvent.click(trigger);
  await screen.findByRole('dialog', { name: 'Rename' });
  return trigger;
}

describe('Dialog focus', () => {
  it('opens on its first field, not on Close, and gives focus back to its trigger on close', async () => {
    render(
      <Page
        content={
          <>
            <p>
              A name helps you tell things apart. <a href="/help">Help</a>
            </p>
            <label>
              Name <input />
            </label>
          </>
        }
      />,
    );
    const trigger = await openIt();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('opens on the checked choice of a radio group', async () => {
    render(
      <Page
        content={
          <fieldset>
            <legend>Market</legend>
            <label>
              Spot <input type="radio" name="market" value="spot" />
            </label>
            <label>
              Futures <input type="radio" name="market" value="future" defaultChecked />
            </label>
          </fieldset>
        }
      />,
    );
    await openIt();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Futures' }));
  });

  it('without a field, opens on the first control of its content, else of its footer', async () => {
    const { unmount } = render(<Page content={<a href="/docs">Read the docs</a>} />);
    await openIt();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Read the docs' }));
    unmount();

    render(<Page content={<p>Nothing to fill in.</p>} />);
    await openIt();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('gives focus back to its trigger when Escape or Close closes it', async () => {
    render(<Page content={<input aria-label="Name" />} />);
    const trigger = await openIt();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);

    await openIt();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('gives focus back to its trigger when a field of it took the focus as it opened (autoFocus)', async () => {
    render(<Page content={<input aria-label="Name" autoFocus />} />);
    const trigger = await openIt();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await userEvent.keyboard('{Escape}');
    expect(document.activeElement).toBe(trigger);
  });

  it('falls back on Close only when the dialog holds nothing else', async () => {
    render(<Page footer={false} content={<p>Done.</p>} />);
    await openIt();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });
});
