// The dashboard's shell: the session, the hash router and the header.
import { html, render, useEffect, useState } from './preact.js';
import { currentSession, logOut, whenUnauthorized } from './api.js';
import { reset } from './store.js';
import { Fleet } from './views/fleet.js';
import { Login } from './views/login.js';
import { NodeList } from './views/node-list.js';
import { NodePage } from './views/node-page.js';

function route() {
  const hash = location.hash.replace(/^#/, '') || '/nodes';
  const node = /^\/nodes\/([^/?]+)/.exec(hash);
  if (node) return { page: 'node', uuid: decodeURIComponent(node[1]) };
  if (hash.startsWith('/fleet')) return { page: 'fleet' };
  return { page: 'nodes' };
}

function useRoute() {
  const [current, setCurrent] = useState(route());
  useEffect(() => {
    const onHash = () => setCurrent(route());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return current;
}

function Header({ session, onLogOut, page }) {
  return html`<header class="top">
    <h1>ironic-ts</h1>
    <nav>
      <a href="#/nodes" class=${page === 'nodes' ? 'active' : ''}>Nodes</a>
      <a href="#/fleet" class=${page === 'fleet' ? 'active' : ''}>Fleet</a>
    </nav>
    <span class="who">${session.user}${session.project ? ` · project ${session.project}` : ''}</span>
    <button class="secondary" data-action="log-out" onClick=${onLogOut}>Log out</button>
  </header>`;
}

function App() {
  const [session, setSession] = useState(undefined);
  const current = useRoute();
  useEffect(() => {
    whenUnauthorized(() => { reset(); setSession(null); });
    currentSession().then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return html`<p class="muted">Loading…</p>`;
  if (session === null) return html`<main><${Login} onSession=${setSession} /></main>`;
  const onLogOut = async () => { await logOut().catch(() => {}); reset(); setSession(null); };
  return html`<${Header} session=${session} onLogOut=${onLogOut} page=${current.page} />
    <main>${current.page === 'node' ? html`<${NodePage} key=${current.uuid} uuid=${current.uuid} />`
      : current.page === 'fleet' ? html`<${Fleet} />` : html`<${NodeList} />`}</main>`;
}

render(html`<${App} />`, document.getElementById('app'));
