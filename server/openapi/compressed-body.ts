import Negotiator from 'negotiator';

/**
 * A large static body (the OpenAPI document, the API reference bundle) with its gzip form made once, on the first
 * request that accepts it: `openapi.json` is 1.5 MB as sent and about a tenth of that gzipped. A client that does
 * not accept gzip (or refuses it with `q=0`) gets the bytes as they are; both answers say `Vary: Accept-Encoding`
 * so a shared cache keeps them apart.
 */
export class CompressedBody {
  private gzipped: Uint8Array | undefined;
  private readonly plain: Uint8Array;

  constructor(
    body: string | Uint8Array,
    private readonly headers: Record<string, string>,
  ) {
    this.plain = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  }

  respond(request: Request): Response {
    const headers = { ...this.headers, vary: 'Accept-Encoding' };
    if (!acceptsGzip(request.headers.get('accept-encoding'))) return new Response(this.plain, { headers });
    this.gzipped ??= Bun.gzipSync(this.plain as Uint8Array<ArrayBuffer>);
    return new Response(this.gzipped, { headers: { ...headers, 'content-encoding': 'gzip' } });
  }
}

/** Whether an Accept-Encoding header lets us answer gzip (negotiator reads q-values, `*` and `identity;q=0`). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encoding(['gzip', 'identity']) === 'gzip';
}
