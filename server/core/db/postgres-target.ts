/**
 * Where postgres.js connects for a PostgreSQL URL. libpq's `host` parameter names the server's host or, starting
 * with `/`, the directory of its Unix socket (`postgres://qc@localhost/qc?host=/var/run/postgresql`, as psql and
 * every libpq client read it). postgres.js takes that only as its `host` option: left on the URL, it is sent to
 * the server as a setting, which refuses the connection. So the parameter moves from the URL to the option.
 */
export function postgresTarget(url: string): { url: string; host?: string } {
  const at = url.indexOf('?');
  if (at < 0) return { url };
  const params = new URLSearchParams(url.slice(at + 1));
  const host = params.get('host');
  if (host === null) return { url };
  params.delete('host');
  const rest = params.toString();
  return { url: rest ? `${url.slice(0, at)}?${rest}` : url.slice(0, at), host };
}
