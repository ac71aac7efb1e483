/** What the runtime does when the browser says the connection or the page changed. */
export interface PageEventHandlers {
  online(): void;
  offline(): void;
  /** The page is hidden (another tab, the phone locked): it draws no frames until shown again. */
  hidden(): void;
  /** The page goes away (closed, reloaded, another site). */
  leaving(): void;
}

/**
 * Listens to the browser's online/offline events and to the page being hidden or unloaded; says at once when
 * the browser already knows it is offline. Returns how to stop listening.
 */
export function listenToPage(handlers: PageEventHandlers): () => void {
  const hidden = () => {
    if (document.visibilityState === 'hidden') handlers.hidden();
  };
  const leaving = () => handlers.leaving();
  const online = () => handlers.online();
  const offline = () => handlers.offline();
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  window.addEventListener('pagehide', leaving);
  // visibilitychange bubbles from the document to the window.
  window.addEventListener('visibilitychange', hidden);
  if (typeof navigator !== 'undefined' && navigator.onLine === false) offline();
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
    window.removeEventListener('pagehide', leaving);
    window.removeEventListener('visibilitychange', hidden);
  };
}
