/**
 * Worker thread: writes a template taken in memory (pglite-template.ts) to the cache, off the thread that serves
 * requests. On that thread, creating its 1500 files took 1.3 s of a start (Bun's fs/promises writeFile ran there,
 * profiled on the shared 2-core machine) and held /healthz and the demo of the start keeping it.
 */
import { setPriority } from 'node:os';
import { type TemplateWrite, writeTemplate } from './pglite-template-files.ts';

declare const self: Worker;

try {
  // The lowest CPU priority, for this thread only on Linux: the requests the service answers meanwhile come first.
  setPriority(19);
} catch {}

self.onmessage = (event: MessageEvent<TemplateWrite>) => {
  try {
    writeTemplate(event.data);
    self.postMessage({});
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
