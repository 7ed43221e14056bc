import { Elysia } from 'elysia';
import type { Deps } from '../deps.ts';
import { isJsonMime, mediaType, parseJsonBody, withoutProtoKeys } from './read-body.ts';
import { renderError } from './render-error.ts';
import { requestState } from './request-state.ts';

/**
 * The envelope error handling and request id for the JSON surfaces outside /v1/qc (operator API,
 * dashboard token minting, health), so every JSON answer of the service fails the same way.
 */
export function createJsonApp(deps: Deps, prefix: string, name: string) {
  return (
    new Elysia({ prefix, name })
      // JSON bodies follow the modern API's one depth rule (./read-body.ts): refused before any parse.
      .onParse(async ({ request, contentType }) => {
        if (isJsonMime(mediaType(contentType))) return withoutProtoKeys(parseJsonBody(await request.text(), 'request'));
      })
      .onError(({ request, code, error }) => renderError(deps, request, code, error))
      .onAfterHandle(({ request, set }) => {
        Object.assign(set.headers, requestState(request).headers);
      })
  );
}

/** A JSON surface outside /v1/qc; its operations register on it with `.use((app: JsonApp) => app.post(...))`. */
export type JsonApp = ReturnType<typeof createJsonApp>;
