// A front door on loopback, as a load balancer in front of receiver replicas: each connection goes
// to the next backend in turn, bytes pass through untouched. A backend that refuses the connection
// or dies mid-request becomes EOF for the sender (its socket is closed without an answer), which
// the sender retries; like a balancer's passive health check, that backend then gets no new
// connection for `downMs`, so the retry goes to another one.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface FrontDoor {
  url: string;
  /** Replaces the backends (e.g. after a replica was restarted on a new port). */
  setBackends(urls: string[]): void;
  /** Connections the front door has opened so far: a mark for `holding`. */
  readonly opened: number;
  /**
   * Connections to this backend open now with no byte of an answer yet (deliveries it holds),
   * of those opened after the mark `since` (a value of `opened`; default all).
   */
  holding(url: string, since?: number): number;
  /** Connections that ended as EOF for the sender because their backend refused or died. */
  readonly dropped: number;
  close(): Promise<void>;
}

export async function startFrontDoor(backends: string[], downMs = 2_000): Promise<FrontDoor> {
  let targets = backends.map((u) => new URL(u));
  let next = 0;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const downUntil = new Map<string, number>();
  let opened = 0;
  /** Each connection open now: its backend, its number, whether the backend answered a byte. */
  const live = new Set<{ href: string; number: number; answered: boolean }>();
  const pick = (): URL | undefined => {
    for (let tries = 0; tries < targets.length; tries++) {
      const target = targets[next++ % targets.length] as URL;
      if ((downUntil.get(target.href) ?? 0) <= Date.now()) return target;
    }
    return targets[next++ % targets.length];
  };
  const server: Server = createServer((client) => {
    const target = pick();
    if (!target) return void client.destroy();
    const backend = createConnection({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(backend);
    const connection = { href: target.href, number: ++opened, answered: false };
    live.add(connection);
    backend.on('data', () => (connection.answered = true));
    client.pipe(backend);
    backend.pipe(client);
    const drop = () => {
      if (!connection.answered) dropped++;
      downUntil.set(target.href, Date.now() + downMs);
      // Reset, not FIN: the sender sees the connection die, as behind a real balancer.
      client.resetAndDestroy();
      backend.destroy();
    };
    backend.on('error', drop);
    client.on('error', () => backend.destroy());
    backend.on('close', () => {
      sockets.delete(backend);
      live.delete(connection);
      if (!client.destroyed) client.end();
    });
    client.on('close', () => {
      sockets.delete(client);
      backend.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    setBackends: (urls) => void (targets = urls.map((u) => new URL(u))),
    get opened() {
      return opened;
    },
    holding(url, since = 0) {
      const href = new URL(url).href;
      return [...live].filter((c) => c.href === href && c.number > since && !c.answered).length;
    },
    get dropped() {
      return dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
