/* No 'server-only' import: proxy.ts uses this (see request-target.ts). */

/*
 * A page answered before the app renders anything (proxy.ts refusing an address the framework cannot
 * decode), in the app's own look: its header, its type and colours (as app/globals.css gives them), a way
 * back. Self-contained: the stylesheet rides on this response's nonce, nothing else may load.
 */

const STYLE = `:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--accent:#0b5cad;--border:#d0d7de;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0;line-height:1.5}
.skip-link{position:absolute;left:-999px;top:0}.skip-link:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
.app-header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--border)}
.app-header a{color:inherit;text-decoration:none}.app-name{font-weight:700}
main{padding:1.5rem;max-width:72rem;margin:0 auto;overflow-wrap:break-word}main:focus{outline:none}
a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.muted{color:var(--muted)}
@media (max-width:40rem){main{padding:1rem}.app-header{padding:.75rem 1rem}}`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PlainPage {
  title: string;
  heading: string;
  /** Paragraphs of plain text (escaped here). */
  paragraphs: string[];
  /** The way back: links, in order. */
  links: Array<{ href: string; label: string }>;
}

/** The page's HTML and the CSP that lets its one stylesheet (and nothing else) apply. */
export function plainPage(page: PlainPage, nonce: string): { html: string; csp: string } {
  const links = page.links.map((l) => `<a href="${escape(l.href)}">${escape(l.label)}</a>`).join(' · ');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(page.title)} · Intake</title><style nonce="${nonce}">${STYLE}</style></head>
<body><a class="skip-link" href="#main">Skip to content</a>
<header class="app-header"><a class="app-name" href="/">Intake</a></header>
<main id="main" tabindex="-1"><h1>${escape(page.heading)}</h1>
${page.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}
<p>${links}</p></main></body></html>`;
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
  return { html, csp };
}
