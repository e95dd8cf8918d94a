// The frame of every page: head (title, stylesheet, feeds, Open Graph, JSON-LD, the API's
// discovery tags), a skip link, the header with the view links, main, footer. No scripts run:
// the JSON-LD block is data (its `<` escaped), which the Content-Security-Policy does not block.

import type { ComponentChildren } from 'preact';
import { jsonForScript } from '../text.ts';

export interface Frame {
  siteTitle: string;
  lang: string;
  /** the page's own title ('' on the home page) */
  title: string;
  description: string;
  canonical: string;
  stylesheet: string;
  home: string;
  /** the view links of the header */
  nav: Array<{ href: string; label: string; current: boolean }>;
  /** text/calendar feeds of what the page shows */
  feeds: Array<{ title: string; href: string }>;
  /** the REST answer behind the page (application/json) */
  api?: string;
  /** {siteUrl}{restPrefix}/ and the X-TEC-API-ROOT of the page */
  restIndex: string;
  apiRoot: string;
  origin: string;
  og: { type: string; image?: string };
  ld?: unknown;
  /** noindex (a preview of a record the public cannot see, an error) */
  noindex?: boolean;
}

export function Layout({ f, children }: { f: Frame; children: ComponentChildren }) {
  const full = f.title ? `${f.title} – ${f.siteTitle}` : f.siteTitle;
  return (
    <html lang={f.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{full}</title>
        {f.description ? <meta name="description" content={f.description} /> : null}
        {f.noindex ? <meta name="robots" content="noindex" /> : null}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={f.stylesheet} />
        <link rel="canonical" href={f.canonical} />
        {f.feeds.map((x) => (
          <link rel="alternate" type="text/calendar" title={x.title} href={x.href} />
        ))}
        {f.api ? <link rel="alternate" type="application/json" href={f.api} /> : null}
        <link rel="https://api.w.org/" href={f.restIndex} />
        <meta name="tec-api-version" content="v1" />
        <meta name="tec-api-origin" content={f.origin} />
        <link rel="alternate" href={f.apiRoot} />
        <meta property="og:site_name" content={f.siteTitle} />
        <meta property="og:title" content={f.title || f.siteTitle} />
        <meta property="og:type" content={f.og.type} />
        <meta property="og:url" content={f.canonical} />
        {f.description ? <meta property="og:description" content={f.description} /> : null}
        {f.og.image ? <meta property="og:image" content={f.og.image} /> : null}
        <meta property="og:locale" content={f.lang.replace('-', '_')} />
        {f.ld !== undefined ? (
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(f.ld) }} />
        ) : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <a class="site-title" href={f.home}>
            {f.siteTitle}
          </a>
          <nav aria-label="Calendar views">
            <ul>
              {f.nav.map((n) => (
                <li>
                  <a href={n.href} aria-current={n.current ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <footer class="site">
          <ul>
            {f.feeds.slice(0, 1).map((x) => (
              <li>
                <a href={x.href}>iCalendar feed</a>
              </li>
            ))}
            <li>
              <a href={f.apiRoot}>REST API</a>
            </li>
          </ul>
        </footer>
      </body>
    </html>
  );
}
