// One API call over a running `tooldesk serve`'s WebSocket (`ws://HOST/api?token=…`): sends the
// request as id 1, resolves with its answer frame, rejects when the socket is refused (HTTP 401).
import WebSocket from 'ws';

export function callOverSocket(socketUrl: string, method: string, request: unknown = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(socketUrl);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, method, request })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.id === 1) {
        ws.close();
        resolve(frame);
      }
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}
