import openapiTS, { astToString } from 'openapi-typescript';

/**
 * TypeScript types of an OpenAPI document (openapi-typescript), as the text of a .d.ts module exporting
 * `paths`, `components` and `operations`. Used by the typed client (client/schema.d.ts) and its test.
 */
export async function typesOf(document: string): Promise<string> {
  return astToString(await openapiTS(document));
}
