// Asks before an action runs: a modal <dialog> (never window.confirm), with the action's own
// inputs (clean steps, rescue password, maintenance reason).
import { html, useEffect, useRef, useState } from '../preact.js';

/**
 * `request`: {title, message, inputs: [{name, label, type, value}], run(values)} or null.
 * The dialog closes itself when run() resolves; a failure stays on screen.
 */
export function ConfirmDialog({ request, onClose }) {
  const dialog = useRef(null);
  const [values, setValues] = useState({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!request) return;
    setValues(Object.fromEntries((request.inputs ?? []).map((i) => [i.name, i.value ?? ''])));
    setError(null);
    setBusy(false);
    if (!dialog.current.open) dialog.current.showModal();
  }, [request]);
  const close = () => { dialog.current.close(); onClose(); };
  const confirm = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      await request.run(values);
      close();
    } catch (err) {
      setError(err.message);
      setBusy(false);
    }
  };
  return html`<dialog ref=${dialog} class="confirm" onCancel=${onClose}>
    ${request ? html`<form method="dialog" onSubmit=${confirm}>
      <h3>${request.title}</h3>
      <p>${request.message}</p>
      ${(request.inputs ?? []).map((input) => html`<label>${input.label}
        ${input.type === 'textarea'
          ? html`<textarea name=${input.name} rows="4" value=${values[input.name] ?? ''}
              onInput=${(ev) => setValues((v) => ({ ...v, [input.name]: ev.currentTarget.value }))} />`
          : html`<input name=${input.name} type=${input.type ?? 'text'} value=${values[input.name] ?? ''}
              onInput=${(ev) => setValues((v) => ({ ...v, [input.name]: ev.currentTarget.value }))} />`}
      </label>`)}
      ${error ? html`<p class="error">${error}</p>` : null}
      <menu>
        <button type="button" class="secondary" onClick=${close}>Cancel</button>
        <button type="submit" class="danger" disabled=${busy} data-confirm="yes">Confirm</button>
      </menu>
    </form>` : null}
  </dialog>`;
}
