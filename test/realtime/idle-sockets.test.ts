import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSockets } from '../../src/features/events/sockets/event-sockets.js';
import type { EventPublisher } from '../support/event-publisher.js';
import { startSocketEndpoints, type SocketEndpoints } from '../support/socket-endpoints.js';
import { eventually } from '../support/eventually.js';
import { within } from '../support/within.js';

let endpoints: SocketEndpoints;
let sockets: EventSockets;
let publisher: EventPublisher;
let url = '';

// The real socket endpoints on their own uWS app, with the shortest idle timeout uWS allows.
beforeAll(async () => {
  endpoints = await startSocketEndpoints({ idleTimeoutSeconds: 8 });
  ({ sockets, publisher, url } = endpoints);
});
afterAll(async () => {
  await endpoints?.stop();
});

describe('idle sockets', () => {
  it('pings every socket; one that never answers is closed, one that does stays and keeps receiving', async () => {
    const open = (autoPong: boolean) =>
      new Promise<WebSocket>((resolve) => {
        const ws = new WebSocket(url, { autoPong });
        ws.once('open', () => resolve(ws));
      });
    const [polite, silent] = await Promise.all([open(true), open(false)]);
    const pings = { polite: 0 };
    polite.on('ping', () => pings.polite++);
    const silentClosed = new Promise<number>((resolve) => silent.once('close', (code: number) => resolve(code)));
    const frames: string[] = [];
    polite.on('message', (data) => frames.push((data as Buffer).toString()));

    // Cut by the server (this client never closes it, and a cut has no close frame: 1006) after its ping
    // went unanswered. How soon depends on the idle timeout (8 s here) and on the machine: the bound only says
    // it is not left open. Whether this client saw the ping first is not asked: the server and this client
    // share one process, and when it is busy the cut can reach the client's socket before the ping is read
    // from it (the polite socket below shows the pings are sent).
    expect(await within(silentClosed, 60_000, 'the silent socket closed by the server')).toBe(1006);
    // The socket that answers has been pinged and answered twice, and is still there.
    await eventually('the polite socket pinged twice', () => pings.polite >= 2, 60_000);
    expect(polite.readyState).toBe(WebSocket.OPEN);
    expect(sockets.size).toBe(1);

    await publisher.publish({ type: 'match.ended', pool: 'agent', recipients: [], dataFor: () => null, spectator: { match_id: 1 } });
    await eventually('the frame delivered', () => frames.length > 0);
    expect(frames.map((f) => JSON.parse(f).type)).toEqual(['match.ended']);
    polite.close();
  }, 150_000);
});
