// A list redrawn from the API replaces the element that had keyboard focus, which sends focus
// back to the start of the page. These two keep a keyboard user where they were: the same control
// of the same item after the redraw, or the same control of the item that took its place.

const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * Where focus is inside `root`: the key (`keyOf`) of the closest item (`itemSelector`) and of the
 * item around it, the control's index among the item's focusable controls, and the item's
 * position among the items of its kind; null when focus is elsewhere.
 */
export function focusSpot(root, itemSelector, keyOf) {
  const active = document.activeElement;
  const item = active && root.contains(active) ? active.closest(itemSelector) : null;
  if (!item || !root.contains(item)) return null;
  const outer = item.parentElement?.closest(itemSelector);
  return {
    key: keyOf(item), outerKey: outer && root.contains(outer) ? keyOf(outer) : null, tag: item.tagName,
    index: [...item.querySelectorAll(FOCUSABLE)].indexOf(active),
    position: [...root.querySelectorAll(itemSelector)].filter((el) => el.tagName === item.tagName).indexOf(item),
  };
}

/**
 * Puts focus back after a redraw, unless the user has moved it elsewhere meanwhile: the same
 * control of the same item; when that item is gone (a deleted server, a decided request), the same
 * control of the item of its kind now at its position (the next one), else of the last one, else
 * the first control of the item around it, else `fallback`.
 */
export function restoreFocus(root, spot, { itemSelector, keyOf, fallback }) {
  const active = document.activeElement;
  if (!spot || (active && active !== document.body && !root.contains(active))) return;
  const items = [...root.querySelectorAll(itemSelector)];
  const peers = items.filter((el) => el.tagName === spot.tag);
  const item = items.find((el) => keyOf(el) === spot.key) ?? peers[spot.position] ?? peers.at(-1);
  const around = item ? null : items.find((el) => keyOf(el) === spot.outerKey);
  const usable = (el) => el && !el.disabled && el.getClientRects().length > 0;
  const controls = [...(item ?? around)?.querySelectorAll(FOCUSABLE) ?? []];
  const target = item && usable(controls[spot.index]) ? controls[spot.index] : controls.find(usable);
  (target ?? fallback)?.focus();
}
