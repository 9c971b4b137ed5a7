// The node's serial console: xterm.js over the WebSocket /dashboard/console/<uuid>, which relays
// the raw bytes both ways. Offered when the node's console interface is not `no-console`.
import { html, useEffect, useRef, useState } from '../preact.js';
import { enc, v1, v1Put } from '../api.js';

const CONSOLE_WAIT_MS = 30000;

/** Enabling or disabling a console is asynchronous (202): waits until the node says it is done. */
async function settleConsole(id, enabled) {
  const deadline = Date.now() + CONSOLE_WAIT_MS;
  while (Date.now() < deadline) {
    const state = await v1(`nodes/${id}/states/console`);
    if (state.console_enabled === enabled) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The console is still ${enabled ? 'disabled' : 'enabled'} after ${CONSOLE_WAIT_MS / 1000} s.`);
}

let xtermModules = null;
const loadXterm = () => (xtermModules ??= Promise.all([
  import('../vendor/@xterm/xterm/lib/xterm.mjs'),
  import('../vendor/@xterm/addon-fit/lib/addon-fit.mjs'),
]));

/**
 * xterm's DOM renderer writes its per-terminal rules into <style> elements, which the strict CSP
 * (style-src 'self') does not apply. Constructed stylesheets are not inline styles: mirror each of
 * xterm's <style> elements into one and keep it in step as xterm rewrites them.
 */
function adoptXtermStyles(root) {
  const mirrors = new Map();
  const sync = () => {
    for (const el of root.querySelectorAll('style')) {
      if (!mirrors.has(el)) {
        const sheet = new CSSStyleSheet();
        mirrors.set(el, sheet);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      mirrors.get(el).replaceSync(el.textContent ?? '');
    }
  };
  const observer = new MutationObserver(sync);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  sync();
  return () => {
    observer.disconnect();
    const gone = new Set(mirrors.values());
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => !gone.has(s));
  };
}

function Terminal({ uuid }) {
  const box = useRef(null);
  const [status, setStatus] = useState('connecting…');
  useEffect(() => {
    let socket = null;
    let cleanup = [];
    let live = true;
    loadXterm().then(([{ Terminal: XTerm }, { FitAddon }]) => {
      if (!live) return;
      const term = new XTerm({ convertEol: false, cursorBlink: true, fontSize: 13, scrollback: 5000 });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(box.current);
      cleanup.push(adoptXtermStyles(box.current));
      fit.fit();
      globalThis.__dashboardTerminal = term;
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${location.host}/dashboard/console/${enc(uuid)}`);
      socket.binaryType = 'arraybuffer';
      socket.addEventListener('open', () => setStatus('connected'));
      socket.addEventListener('message', (m) => term.write(typeof m.data === 'string' ? m.data : new Uint8Array(m.data)));
      socket.addEventListener('close', (e) => setStatus(`closed${e.reason ? `: ${e.reason}` : ''}`));
      const input = term.onData((d) => { if (socket.readyState === WebSocket.OPEN) socket.send(new TextEncoder().encode(d)); });
      const onResize = () => fit.fit();
      window.addEventListener('resize', onResize);
      cleanup.push(() => { input.dispose(); window.removeEventListener('resize', onResize); term.dispose(); });
    }, (e) => setStatus(`terminal failed to load: ${e.message}`));
    return () => { live = false; socket?.close(); cleanup.forEach((fn) => fn()); };
  }, [uuid]);
  return html`<div class="console"><p class="console-status">${status}</p><div class="terminal" ref=${box}></div></div>`;
}

export function Console({ node, ask, refresh }) {
  const [open, setOpen] = useState(false);
  if (!node.console_interface || node.console_interface === 'no-console') {
    return html`<p class="muted">This node's console interface (${node.console_interface ?? 'none'}) has no console.</p>`;
  }
  const id = enc(node.uuid);
  const toggle = (enabled) => ask({
    title: enabled ? 'Enable console' : 'Disable console',
    message: `${enabled ? 'Enable' : 'Disable'} the serial console of node ${node.name ?? node.uuid}?`,
    run: async () => { await v1Put(`nodes/${id}/states/console`, { enabled }); await settleConsole(id, enabled); refresh(); },
  });
  if (!node.console_enabled) {
    return html`<p>Console disabled (${node.console_interface}).
      <button data-action="console-enable" onClick=${() => toggle(true)}>Enable console</button></p>`;
  }
  return html`<div>
    <p>${node.console_interface}
      <button data-action="console-open" onClick=${() => setOpen(!open)}>${open ? 'Close' : 'Open'} console</button>
      <button data-action="console-disable" class="secondary" onClick=${() => toggle(false)}>Disable console</button></p>
    ${open ? html`<${Terminal} uuid=${node.uuid} />` : null}
  </div>`;
}
