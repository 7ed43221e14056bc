/**
 * The replay's safety: by default every replayed request asks the target for a dry run with this header. The
 * port (server/legacy-cutover) then answers it from the property's actor turn with every write rolled back
 * (calendar rows, revisions getBookings marks as sent, acks, room assignments, the PMS's property data) and says
 * so with the same header on its answer; `harness serve` writes nothing and says so too.
 */
export const DRY_RUN_HEADER = 'x-qc-dry-run';

/**
 * Whether the target honours dry runs, asked with a request that cannot write anything whatever the target
 * does with it: no api_key, no legacy method. `unreachable` when it gave no answer at all (a mistyped port is not
 * a target that writes).
 */
export async function honoursDryRun(
  target: string,
  timeoutMs: number,
): Promise<{ confirmed: boolean; unreachable?: string }> {
  try {
    const answer = await fetch(`${target.replace(/\/+$/, '')}/api/pms/v1/`, {
      headers: { [DRY_RUN_HEADER]: '1' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.arrayBuffer();
    return { confirmed: answer.headers.get(DRY_RUN_HEADER) === '1' };
  } catch (error) {
    return { confirmed: false, unreachable: error instanceof Error ? error.message : String(error) };
  }
}
