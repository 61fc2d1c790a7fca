import { createContext, useContext, type JSX } from 'solid-js';
import type { AppStore } from './create-app-store.ts';

/** What the panels share besides the store: which panel is open and a variable to show. */
export interface UiControls {
  openVariable(name: string): void;
  /** Puts text into the composer at the cursor (e.g. a copied $VAR_REF). */
  insertIntoComposer(text: string): void;
  /** Takes the keyboard to the message box (after opening a session from the search). */
  focusComposer(): void;
}

const AppContext = createContext<AppStore & UiControls>();

export function AppProvider(props: { value: AppStore & UiControls; children: JSX.Element }) {
  return <AppContext.Provider value={props.value}>{props.children}</AppContext.Provider>;
}

export function useApp(): AppStore & UiControls {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp() outside <AppProvider>');
  return value;
}
