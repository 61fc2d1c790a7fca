// A STUN/TURN-like listener on loopback (UDP and TCP) and the attack an MCP App would make
// through WebRTC (issue 32 §9): RTCPeerConnection from its own window, from an iframe it
// creates (contentWindow, window[0]), and from a srcdoc frame's own script.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

export interface StunTurnListener {
  udpPort: number;
  tcpPort: number;
  /** Datagrams and connections that arrived so far. */
  arrived(): { udp: number; tcp: number };
  close(): Promise<void>;
}

export async function startStunTurnListener(): Promise<StunTurnListener> {
  let udp = 0;
  let tcp = 0;
  const socket = createSocket('udp4');
  socket.on('message', () => udp++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const server = createServer((conn) => {
    tcp++;
    conn.on('error', () => {});
    conn.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    udpPort: socket.address().port,
    tcpPort: (server.address() as { port: number }).port,
    arrived: () => ({ udp, tcp }),
    close: async () => {
      socket.close();
      server.close();
    },
  };
}

/**
 * Run in the page (page/frame.evaluate): every way it finds to open a peer connection towards
 * the listener, and what each gave. Never throws.
 */
export async function webrtcAttack(ports: { udp: number; tcp: number }): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const servers = [
    { urls: `stun:127.0.0.1:${ports.udp}` },
    { urls: `turn:127.0.0.1:${ports.udp}?transport=udp`, username: 'u', credential: 'p' },
    { urls: `turn:127.0.0.1:${ports.tcp}?transport=tcp`, username: 'u', credential: 'p' },
  ];
  const attempt = async (label: string, find: () => unknown) => {
    let PC: unknown;
    try {
      PC = find();
    } catch (error) {
      out[label] = `unreachable: ${(error as Error).name}`;
      return;
    }
    if (typeof PC !== 'function') {
      out[label] = 'no RTCPeerConnection';
      return;
    }
    try {
      const pc = new (PC as typeof RTCPeerConnection)({ iceServers: servers });
      pc.createDataChannel('out');
      await pc.setLocalDescription(await pc.createOffer());
      out[label] = 'connection made';
    } catch (error) {
      out[label] = `refused: ${(error as Error).name}`;
    }
  };
  const w = window as unknown as Record<string, unknown>;
  await attempt('window', () => w.RTCPeerConnection);
  await attempt('webkit prefix', () => w.webkitRTCPeerConnection);
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  await attempt('window[0]', () => (window[0] as unknown as Record<string, unknown> | undefined)?.RTCPeerConnection);
  await attempt('iframe contentWindow', () => (frame.contentWindow as unknown as Record<string, unknown> | null)?.RTCPeerConnection);
  const html = document.createElement('div');
  html.innerHTML = '<iframe></iframe>';
  document.body.appendChild(html);
  await attempt('innerHTML iframe', () => (window[1] as unknown as Record<string, unknown> | undefined)?.RTCPeerConnection);
  // A srcdoc frame runs its own script in its own realm.
  const said = new Promise<string>((resolve) => {
    window.addEventListener('message', (e) => {
      if (e.data && typeof e.data.srcdoc === 'string') resolve(e.data.srcdoc);
    });
    setTimeout(() => resolve('no answer'), 3000);
  });
  const src = document.createElement('iframe');
  src.srcdoc = `<script>(async () => { let r; try { if (typeof RTCPeerConnection !== 'function') r = 'no RTCPeerConnection'; else { const pc = new RTCPeerConnection({ iceServers: ${JSON.stringify(servers)} }); pc.createDataChannel('x'); await pc.setLocalDescription(await pc.createOffer()); r = 'connection made'; } } catch (e) { r = 'refused: ' + e.name; } parent.postMessage({ srcdoc: r }, '*'); })();</script>`;
  document.body.appendChild(src);
  out['srcdoc frame'] = await said;
  return out;
}
