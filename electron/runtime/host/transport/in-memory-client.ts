// The API over an in-memory pair: same validation and error values as the real transports, with
// requests, responses and events copied as a wire would (no shared objects). For tests and tools
// that run a host in-process.
import type { ApiEvent, TooldeskApi } from '../../../../shared/api.ts';
import { buildApi, unwrapResult } from '../../../../shared/build-api.ts';
import { dispatchRequest } from '../dispatch.ts';
import type { ApiHost } from '../types.ts';

const wire = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function createInMemoryClient(host: ApiHost): TooldeskApi {
  return buildApi(
    async (method, request) => unwrapResult(wire(await dispatchRequest(host.handlers, method, wire(request)))),
    (listener) => host.onEvent((event: ApiEvent) => listener(wire(event))),
  );
}
