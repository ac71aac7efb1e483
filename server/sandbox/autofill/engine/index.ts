/** The sandbox's Autofill engine: pure and deterministic (same evidence and contract, same proposals). */
export { extractText, csvToText, parseCsv, decodeText, type Extracted, type ExtractFailureCode } from './extract';
export { extractPdfText, PDF_LIMITS, type PdfLimits, type PdfTextResult } from './pdf';
export { writePdf, type PdfTextStyle, type PdfWriteOptions } from './pdf-writer';
export { proposeAnswers, MIN_CONFIDENCE, LOW_CONFIDENCE, type Concern, type ConcernCode, type EvidenceDoc, type Proposal } from './propose';
export { readerOf, type Reader, type TargetField } from './fields';
