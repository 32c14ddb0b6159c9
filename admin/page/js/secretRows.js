import { h, nextId } from './dom.js';
import { draftErrors, isRenamed, newRow, rowHint } from './secretDraft.js';

/**
 * The env or header rows of the server form: name, value (write-only), explicit clear, remove.
 * `rows` is the live draft (see secretDraft.js). Typing updates hints and inline errors in place,
 * so focus and keyboard order are never disturbed; only adding/removing/clearing redraws.
 */
export function createSecretRows({ legend, rows, caseless }) {
  const list = h('div', { class: 'secret-rows' });
  const noun = legend.toLowerCase().replace(/s$/, '');
  const addButton = h('button', { type: 'button', class: 'secondary' }, `Add ${noun}`);
  const box = h('fieldset', { class: 'secrets' }, h('legend', {}, legend), list, addButton);
  let views = [];
  addButton.addEventListener('click', () => {
    rows.push(newRow());
    draw();
    views.at(-1)?.keyInput.focus();
  });

  function draw(focusClearOf) {
    views = rows.map((row, index) => rowView(row, index));
    list.replaceChildren(...views.map((v) => v.element));
    update();
    if (focusClearOf !== undefined) views[focusClearOf]?.clear?.focus();
  }

  function update() {
    const errors = draftErrors(rows, { caseless });
    views.forEach((view, index) => {
      const error = errors.get(index);
      const row = rows[index];
      view.hint.textContent = rowHint(row);
      view.error.textContent = error ?? '';
      view.error.hidden = !error;
      view.element.classList.toggle('invalid', Boolean(error));
      view.keyInput.setAttribute('aria-invalid', error ? 'true' : 'false');
      view.keyInput.setAttribute('aria-describedby', error ? view.error.id : view.hint.id);
      view.valueInput.placeholder = row.originalKey !== undefined && !isRenamed(row) && !row.cleared ? 'saved value kept' : '';
    });
    return errors;
  }

  function rowView(row, index) {
    const keyId = nextId('key');
    const valueId = nextId('value');
    const keyInput = h('input', { id: keyId, value: row.key, autocomplete: 'off', spellcheck: 'false', class: 'secret-key' });
    const valueInput = h('input', { id: valueId, type: 'password', autocomplete: 'new-password', disabled: row.cleared, class: 'secret-value' });
    // The property, not h()'s attribute: a typed secret must never be written into the page's HTML.
    valueInput.value = row.typed;
    const hint = h('p', { class: 'hint', id: `${valueId}-hint` });
    const error = h('p', { class: 'error', id: `${valueId}-error`, role: 'alert', hidden: true });
    valueInput.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
    keyInput.addEventListener('input', () => { row.key = keyInput.value; update(); });
    valueInput.addEventListener('input', () => { row.typed = valueInput.value; update(); });
    const clear = row.originalKey === undefined ? null
      : h('button', { type: 'button', class: 'secondary', 'aria-pressed': row.cleared ? 'true' : 'false',
        onclick: () => { row.cleared = !row.cleared; if (row.cleared) row.typed = ''; draw(index); } }, row.cleared ? 'Keep value' : 'Clear value');
    const remove = h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove ${row.key || 'this entry'}`,
      onclick: () => { rows.splice(index, 1); draw(); (views[index]?.keyInput ?? addButton).focus(); } }, 'Remove');
    const element = h('div', { class: 'secret-row', dataset: { index: String(index) } },
      h('div', { class: 'field' }, h('label', { for: keyId }, 'Name'), keyInput),
      h('div', { class: 'field' }, h('label', { for: valueId }, 'Value'), valueInput),
      h('div', { class: 'row-actions' }, clear, remove), hint, error);
    return { element, keyInput, valueInput, hint, error, clear };
  }

  draw();
  return { element: box, check: update };
}
