/**
 * The browser's EventSource, driven by a test (happy-dom has none): `emit` what the server would
 * send, `drop` the connection. Install with `vi.stubGlobal('EventSource', FakeEventSource)` or pass
 * it where an EventSource constructor is taken.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  onerror: ((event: Event) => void) | null = null;
  private listeners = new Map<string, Array<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server sends `event: <type>` with an optional `id:`. */
  emit(type: string, id = '') {
    if (type === 'ready' || type === 'resync') this.readyState = FakeEventSource.OPEN;
    const event = { type, lastEventId: id, data: JSON.stringify({ type, id: 'x' }) } as MessageEvent;
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** A dropped connection: the browser retries (CONNECTING) or gives up (CLOSED, e.g. an error status). */
  drop(givesUp: boolean) {
    this.readyState = givesUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }

  static latest(): FakeEventSource {
    const latest = FakeEventSource.instances.at(-1);
    if (!latest) throw new Error('no EventSource was opened');
    return latest;
  }
}
