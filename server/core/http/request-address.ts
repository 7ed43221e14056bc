import { clientAddress, type TrustedProxies } from './client-address.ts';
import { requestState } from './request-state.ts';

/**
 * The client's address of a request whose server the pipeline kept (`RequestState.peer`), read on first use;
 * otherwise the address a hook already stored, if any. A read of a known client never needs it, and reading it
 * is a system call (issue 27).
 */
export function requestAddress(request: Request, proxies: TrustedProxies): string | undefined {
  const state = requestState(request);
  if (state.peer !== undefined) {
    state.address = clientAddress(request, state.peer, proxies);
    state.peer = undefined;
  }
  return state.address;
}
