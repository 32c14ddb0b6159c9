import { describe, expect, it } from 'vitest';
import { reactomeExportCandidates, reactomeKind } from '../../../sources/reactome/reactomeRecords.js';

const BASE = 'https://reactome.org/ContentService';

describe('Reactome record kinds and exports', () => {
  it('maps pathway and reaction classes, and names any other class', () => {
    expect(reactomeKind('TopLevelPathway')).toBe('pathway');
    expect(reactomeKind('BlackBoxEvent')).toBe('reaction');
    expect(reactomeKind('Reaction')).toBe('reaction');
    expect(reactomeKind('Complex')).toBe('complex');
    expect(reactomeKind(undefined)).toBe('entity');
  });

  it('offers SBML/SBGN exports for events only', () => {
    const reaction = { stId: 'R-HSA-1', displayName: 'r', schemaClass: 'Reaction' };
    expect(reactomeExportCandidates(reaction, BASE).map((c) => c.url)).toEqual([
      `${BASE}/exporter/event/R-HSA-1.sbml`,
      `${BASE}/exporter/event/R-HSA-1.sbgn`,
    ]);
    expect(reactomeExportCandidates({ stId: 'R-HSA-2', displayName: 'c', schemaClass: 'Complex' }, BASE)).toEqual([]);
    expect(reactomeExportCandidates({ stId: 'R-HSA-3', displayName: 'x' }, BASE)).toEqual([]);
  });
});
