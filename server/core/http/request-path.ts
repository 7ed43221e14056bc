/**
 * The path of a request's URL (`http://host:port/path?query` gives `/path`), as the router reads it: the log line
 * of every request parsed the whole URL with `new URL()` for it (issue 27).
 */
export function requestPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // '?' or '#'
    if (c === 63 || c === 35) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}
