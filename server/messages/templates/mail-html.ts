/**
 * The one place mail HTML is made: every value goes through `esc`, and the layout has no remote image, no
 * script, no tracking and no style sheet a client might fetch (inline styles only).
 */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A paragraph of plain text (already the words of the message, not markup). */
export const para = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${esc(text)}</p>`;

/** The message's one call to action: a button-looking link whose text says where it goes. */
export const action = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="${esc(href)}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;border-radius:6px;font-weight:bold;text-decoration:none">${esc(label)}</a></p>` +
  `<p style="margin:0 0 16px;font-size:14px;line-height:1.5;color:#374151">If the button does not work, copy this address into your browser: <span style="word-break:break-all">${esc(href)}</span></p>`;

/** A whole document: language, title, one heading, the body, and the footer saying why this person got it. */
export function mailDocument({ lang, title, heading, body, footer }: { lang: string; title: string; heading: string; body: string; footer: string }): string {
  return `<!doctype html>
<html lang="${esc(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;color:#111827;font-family:Arial,Helvetica,sans-serif">
<main style="max-width:560px;margin:0 auto;padding:24px 16px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${esc(heading)}</h1>
${body}
<hr style="border:0;border-top:1px solid #d1d5db;margin:24px 0">
<p style="margin:0;font-size:13px;line-height:1.5;color:#4b5563">${esc(footer)}</p>
</main>
</body>
</html>
`;
}
