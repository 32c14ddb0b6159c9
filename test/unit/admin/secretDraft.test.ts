import { describe, expect, it } from 'vitest';
import { applySecretEdits } from '../../../gateway/custom/secretEdits.js';

// The page's draft logic is a plain browser module (no build step, no types): loaded by URL.
const draft: any = await import(new URL('../../../admin/page/js/secretDraft.js', import.meta.url).href);

const saved = { API_KEY: 'key-one', REGION: 'eu-west' };

/** What the gateway would store after the page's edits: the page and the API agree end to end. */
const store = (rows: any[]) => applySecretEdits('env', saved, draft.draftToEdits(rows));

describe('the page\'s secret-edit draft (seed §5.3)', () => {
  it('sends null for untouched saved values, so they are kept', () => {
    const rows = draft.draftFromSaved([{ key: 'API_KEY', value: null }, { key: 'REGION', value: null }]);
    expect(draft.draftToEdits(rows)).toEqual([
      { key: 'API_KEY', value: null, originalKey: 'API_KEY' },
      { key: 'REGION', value: null, originalKey: 'REGION' },
    ]);
    expect(draft.draftErrors(rows).size).toBe(0);
    expect(store(rows)).toEqual(saved);
  });

  it('blocks a rename without a new value, and accepts it with one', () => {
    const rows = draft.draftFromSaved([{ key: 'API_KEY', value: null }]);
    rows[0].key = 'SERVICE_KEY';
    expect(draft.draftErrors(rows).get(0)).toMatch(/Renamed from "API_KEY": enter a new value/);
    expect(() => store(rows)).toThrow(/renamed from "API_KEY"/);
    rows[0].typed = 'key-two';
    expect(draft.draftErrors(rows).size).toBe(0);
    expect(store(rows)).toEqual({ SERVICE_KEY: 'key-two' });
  });

  it('restoring the original name keeps the stored value; a typed value still replaces it', () => {
    const rows = draft.draftFromSaved([{ key: 'REGION', value: null }]);
    rows[0].key = 'ZONE';
    rows[0].key = 'REGION';
    expect(draft.draftErrors(rows).size).toBe(0);
    expect(store(rows)).toEqual({ REGION: 'eu-west' });
    rows[0].typed = 'us-east';
    expect(store(rows)).toEqual({ REGION: 'us-east' });
  });

  it('a swap of two saved names needs both values again', () => {
    const rows = draft.draftFromSaved([{ key: 'API_KEY', value: null }, { key: 'REGION', value: null }]);
    rows[0].key = 'REGION';
    rows[1].key = 'API_KEY';
    expect([...draft.draftErrors(rows).keys()]).toEqual([0, 1]);
  });

  it('clears only when asked, and flags empty and repeated names', () => {
    const rows = draft.draftFromSaved([{ key: 'REGION', value: null }]);
    rows[0].cleared = true;
    expect(store(rows)).toEqual({ REGION: '' });
    const added = [...rows, draft.newRow(), { ...draft.newRow(), key: 'REGION' }];
    expect(draft.draftErrors(added).get(1)).toMatch(/Enter a name/);
    expect(draft.draftErrors(added).get(2)).toMatch(/listed twice/);
    expect(draft.draftErrors([{ ...draft.newRow(), key: 'x-token' }, { ...draft.newRow(), key: 'X-Token' }], { caseless: true }).get(1)).toMatch(/listed twice/);
  });
});
