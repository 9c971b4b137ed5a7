// Log in with the API's own credentials (noauth: any name; http_basic; Keystone with a project).
import { html, useState } from '../preact.js';
import { logIn } from '../api.js';

export function Login({ onSession }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSession(await logIn(String(form.get('username')), String(form.get('password')), String(form.get('project') ?? '')));
    } catch (err) {
      setError(err.status === 401 ? 'Wrong user name or password.' : err.message);
      setBusy(false);
    }
  };
  return html`<form class="login" onSubmit=${submit}>
    <h2>Log in</h2>
    <label>User name <input name="username" autocomplete="username" required /></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" /></label>
    <label>Project <input name="project" placeholder="(Keystone only, optional)" /></label>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <button type="submit" disabled=${busy}>Log in</button>
  </form>`;
}
