import { field, h } from './dom.js';

/**
 * A form generated from a tool's JSON Schema input: one control per top-level property (text,
 * number, checkbox, choice; JSON text for objects and arrays). Anything it cannot express is left
 * to the raw JSON editor. `read()` returns the arguments, or throws with the field named.
 */
export function schemaForm(schema) {
  const properties = schema && typeof schema === 'object' && schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const controls = Object.entries(properties).map(([name, prop]) => control(name, prop ?? {}, required.has(name)));
  return {
    element: h('div', { class: 'schema-form' }, controls.length ? controls.map((c) => c.element) : h('p', { class: 'muted' }, 'This tool takes no arguments.')),
    read() {
      // fromEntries defines own keys: assignment would take a `__proto__` argument for the prototype.
      return Object.fromEntries(controls.map((c) => [c.name, c.read()]).filter(([, value]) => value !== undefined));
    },
  };
}

function control(name, prop, isRequired) {
  const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== 'null') : prop.type;
  const label = `${name}${isRequired ? ' (required)' : ''}`;
  const hint = prop.description ? String(prop.description).slice(0, 300) : undefined;
  if (Array.isArray(prop.enum)) {
    const select = h('select', { name }, isRequired ? null : h('option', { value: '' }, '—'), ...prop.enum.map((v) => h('option', { value: JSON.stringify(v), selected: prop.default === v }, String(v))));
    return { name, element: field(label, select, hint), read: () => (select.value === '' ? undefined : JSON.parse(select.value)) };
  }
  if (type === 'boolean') {
    const box = h('input', { type: 'checkbox', name, checked: prop.default === true });
    const element = h('div', { class: 'field check' }, box, h('label', { for: (box.id = `arg-${name}`) }, label), hint ? h('span', { class: 'hint' }, hint) : null);
    return { name, element, read: () => box.checked };
  }
  if (type === 'number' || type === 'integer') {
    const input = h('input', { type: 'number', name, step: type === 'integer' ? '1' : 'any', value: prop.default !== undefined ? String(prop.default) : '', required: isRequired });
    return { name, element: field(label, input, hint), read: () => {
      if (input.value === '') return requiredMissing(name, isRequired);
      const n = Number(input.value);
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) throw new Error(`${name}: enter ${type === 'integer' ? 'a whole number' : 'a number'}.`);
      return n;
    } };
  }
  if (type === 'string' || type === undefined) {
    const input = h('input', { name, value: typeof prop.default === 'string' ? prop.default : '', required: isRequired, spellcheck: 'false' });
    return { name, element: field(label, input, hint), read: () => (input.value === '' ? requiredMissing(name, isRequired) : input.value) };
  }
  const area = h('textarea', { name, rows: '3', spellcheck: 'false' }, prop.default !== undefined ? JSON.stringify(prop.default) : '');
  return { name, element: field(`${label} (JSON)`, area, hint), read: () => {
    if (area.value.trim() === '') return requiredMissing(name, isRequired);
    try {
      return JSON.parse(area.value);
    } catch {
      throw new Error(`${name}: enter valid JSON.`);
    }
  } };
}

function requiredMissing(name, isRequired) {
  if (isRequired) throw new Error(`${name}: this argument is required.`);
  return undefined;
}
