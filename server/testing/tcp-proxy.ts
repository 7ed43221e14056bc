import type { Socket, TCPSocketListener } from 'bun';

interface Link {
  upstream?: Socket<Link>;
  client?: Socket<Link>;
  pending: Uint8Array[];
  silent: boolean;
}

/**
 * A TCP relay in front of a server, for the failure a clean shutdown never shows: `silence()` makes every
 * connection open now go quiet in both directions while staying open (no FIN, no RST), as a half-open
 * connection does after a failover or a dropped network path; connections made afterwards pass normally.
 */
export class TcpProxy {
  /** Connections open now (the listener's handlers add and remove them). */
  readonly links = new Set<Link>();
  private constructor(private readonly server: TCPSocketListener<Link>) {}

  get port(): number {
    return this.server.port;
  }

  static start(upstreamPort: number): TcpProxy {
    let proxy: TcpProxy | undefined;
    const server = Bun.listen<Link>({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        open(client) {
          const link: Link = { client, pending: [], silent: false };
          client.data = link;
          proxy?.links.add(link);
          Bun.connect<Link>({
            hostname: '127.0.0.1',
            port: upstreamPort,
            data: link,
            socket: {
              open(upstream) {
                link.upstream = upstream;
                for (const chunk of link.pending) upstream.write(chunk);
                link.pending = [];
              },
              data(_upstream, chunk) {
                if (!link.silent) link.client?.write(chunk);
              },
              close() {
                if (!link.silent) link.client?.end();
              },
              error() {},
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          const link = client.data;
          if (link.silent) return;
          if (link.upstream) link.upstream.write(chunk);
          else link.pending.push(new Uint8Array(chunk));
          const cut = proxy?.cutWhen;
          if (cut && Buffer.from(chunk).includes(cut)) {
            // The server got the bytes and acts on them; the client only sees its connection die.
            proxy?.links.delete(link);
            link.silent = true;
            client.terminate();
            setTimeout(() => link.upstream?.end(), 200);
          }
        },
        close(client) {
          const link = client.data;
          proxy?.links.delete(link);
          if (!link.silent) link.upstream?.end();
        },
        error() {},
      },
    });
    proxy = new TcpProxy(server);
    return proxy;
  }

  /**
   * Set: the first client message containing these bytes (a statement's text: `commit`) is passed to the
   * server, and then the client's connection is cut before any answer: the client cannot know what happened.
   */
  cutWhen: Buffer | undefined;

  /** Every connection open now stops passing bytes, both ways, and is never closed by the relay. */
  silence(): void {
    for (const link of this.links) link.silent = true;
  }

  stop(): void {
    for (const link of this.links) {
      link.upstream?.end();
      link.client?.end();
    }
    this.server.stop(true);
  }
}
