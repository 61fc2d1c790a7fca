import { render } from 'solid-js/web';
import { createSignal } from 'solid-js';
import { App } from './app.tsx';
import { getConnection } from './api/index.ts';
import { createAppStore } from './store/create-app-store.ts';

const connection = getConnection();
const [state, setState] = createSignal<string>(connection.state());
const store = createAppStore(connection.api, connection);
let wasOpen = connection.state() === 'open';
connection.onConnectionChange((s) => {
  setState(s);
  // After a reconnect, reload what the missed events would have told us.
  if (s === 'open' && wasOpen) void store.init();
  if (s === 'open') wasOpen = true;
});

render(() => <App store={store} connection={state} />, document.getElementById('root')!);
