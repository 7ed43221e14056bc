import http from 'node:http';

export interface AddressedReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP request to a served test app (startServedTestApp) from a chosen loopback source address
 * (127.x.y.z all reach the loopback interface on Linux), so budgets and samples kept per peer address can be
 * tested with many callers. node:http, because fetch cannot choose its source address.
 */
export function requestFrom(
  baseUrl: string,
  address: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<AddressedReply> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: options.headers,
        localAddress: address,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The i-th of many distinct loopback addresses (127.0.1.1, 127.0.1.2, ...). */
export function loopbackAddress(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}
