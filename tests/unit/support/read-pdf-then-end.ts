// Run as its own process (node --import tsx): reads one PDF with the sandbox's reader, prints the result and
// ends its script. The process must then exit by itself: nothing the reader keeps may hold it open.
import { extractPdfText } from '../../../server/sandbox/autofill/engine/pdf';
import { writePdf } from '../../../server/sandbox/autofill/engine/pdf-writer';

void extractPdfText(writePdf([['Read, then exit']])).then((result) => process.stdout.write(JSON.stringify(result)));
