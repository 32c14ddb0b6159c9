import { z } from 'zod';
import { parseShape } from '../shared/parseShape.js';
import { normalizeWhitespace } from '../shared/text.js';
import { parseGeoAccession, type GeoAccession } from './geoIds.js';

const text = z.union([z.string(), z.number()]).transform(String);

const summarySchema = z.object({
  uid: text,
  accession: z.string(),
  entrytype: z.string().optional(),
  title: z.string().optional(),
  summary: z.string().optional(),
  gpl: text.optional(),
  gse: text.optional(),
  taxon: z.string().optional(),
  gdstype: z.string().optional(),
  pdat: z.string().optional(),
  suppfile: z.string().optional(),
  samples: z.array(z.object({ accession: z.string(), title: z.string().optional() })).optional(),
  n_samples: z.union([z.number(), z.string()]).optional(),
  pubmedids: z.array(text).optional(),
  ftplink: z.string().optional(),
  bioproject: z.string().optional(),
});

/** One db=gds ESummary document (series, sample, platform or curated dataset). */
export interface GeoSummary {
  accession: GeoAccession;
  uid: string;
  title: string;
  summary: string;
  entryType: string;
  gdsType?: string;
  taxon?: string;
  /** Platform accessions ("GPL19057"); ESummary lists bare numbers separated by ";". */
  platforms: string[];
  series: string[];
  published?: string;
  supplementaryTypes: string[];
  samples: Array<{ accession: string; title: string }>;
  sampleCount: number;
  pubmedIds: string[];
  ftpLink?: string;
  bioproject?: string;
}

/** Reads an ESummary document; undefined when its accession is not a GEO accession (then it is reported missing). */
export function parseGeoSummary(doc: unknown): GeoSummary | undefined {
  const s = parseShape(summarySchema, doc, 'GEO', 'ESummary document');
  const accession = parseGeoAccession(s.accession);
  if (!accession) return undefined;
  const summary: GeoSummary = {
    accession,
    uid: s.uid,
    title: normalizeWhitespace(s.title ?? ''),
    summary: normalizeWhitespace(s.summary ?? ''),
    entryType: s.entrytype ?? accession.type,
    platforms: numbers(s.gpl).map((n) => `GPL${n}`),
    series: numbers(s.gse).map((n) => `GSE${n}`),
    supplementaryTypes: (s.suppfile ?? '').split(/[;,]\s*/).map((t) => t.trim()).filter(Boolean),
    samples: (s.samples ?? []).map((x) => ({ accession: x.accession, title: normalizeWhitespace(x.title ?? '') })),
    sampleCount: Number(s.n_samples ?? s.samples?.length ?? 0) || 0,
    pubmedIds: s.pubmedids ?? [],
  };
  const published = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(s.pdat?.trim() ?? '');
  if (published) summary.published = `${published[1]}-${published[2]}-${published[3]}`;
  if (s.gdstype) summary.gdsType = s.gdstype;
  if (s.taxon) summary.taxon = s.taxon;
  if (s.ftplink) summary.ftpLink = s.ftplink;
  if (s.bioproject) summary.bioproject = s.bioproject;
  return summary;
}

function numbers(value: string | undefined): string[] {
  return (value ?? '').split(/[;,\s]+/).filter((n) => /^\d+$/.test(n));
}
