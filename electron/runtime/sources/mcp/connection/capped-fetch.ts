// The HTTP side of the message bound: a JSON answer larger than the bound is cut off while it
// streams (the waiting call gets an error naming the size), so a remote server cannot make us
// buffer 100 MB either. Event streams are left alone: each of their messages is small and they
// may stay open for hours.
type Fetch = typeof fetch;

export function cappedFetch(base: Fetch, maxBytes: number): Fetch {
  const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  const tooBig = (size: string) => new Error(`the server's answer was ${size}, over the ${mib(maxBytes)} bound, and was dropped`);
  return async (input, init) => {
    const response = await base(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || type.includes('text/event-stream')) return response;
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw tooBig(mib(declared));
    }
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(tooBig(`more than ${mib(maxBytes)}`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
