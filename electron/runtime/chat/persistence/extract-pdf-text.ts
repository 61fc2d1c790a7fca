// The text of a PDF, page by page, with pdfjs-dist's legacy build (the one that runs on Node 20).
// Loaded on first use: most sessions never see a PDF.

export async function extractPdfText(data: Uint8Array, signal?: AbortSignal): Promise<{ ok: true; text: string; pages: number } | { ok: false; error: string }> {
  try {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    // verbosity 0: font warnings would go to the app's console for every PDF.
    const doc = await pdfjs.getDocument({ data, verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false }).promise;
    try {
      const pages: string[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        if (signal?.aborted) return { ok: false, error: 'aborted' };
        const content = await (await doc.getPage(n)).getTextContent();
        pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      }
      return { ok: true, text: pages.join('\n\n').trim(), pages: doc.numPages };
    } finally {
      await doc.destroy();
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message || String(error) };
  }
}
