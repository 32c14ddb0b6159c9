export { extractPdfText } from './extractPdfText.js';
export type { ExtractPdfTextOptions, PdfExtraction } from './extractPdfText.js';
export { DEFAULT_EXTRACTION_LIMITS, resolveExtractionLimits } from './extractionLimits.js';
export type { ExtractionLimits } from './extractionLimits.js';
export type { ExtractionManifest, ExtractionWarning, PageOffsets } from './buildExtraction.js';
export type { PaperMetadata } from './paperMetadata.js';
export { isPdfMagic } from './sniffPdf.js';
export { failUnfinishedExtractions, INTERRUPTED_REASON } from './failUnfinishedExtractions.js';
