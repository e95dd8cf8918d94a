// The pages' one stylesheet, served at {site}/calendar.css unless the data folder holds a
// site.css of the operator's own. Plain CSS: light and dark colours from prefers-color-scheme,
// a month grid that becomes a list of days below 640 px, readable from 360 px wide.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** The stylesheet the pages link: the built-in one, or the operator's file while it exists (read
 *  again when its time or size changes). `version` names its content (the pages' link carries it,
 *  so browsers fetch a changed one). */
export class Stylesheet {
  private css = { text: STYLESHEET, version: hash(STYLESHEET), mtime: -1, size: -1 };

  constructor(private readonly file: string | undefined) {}

  current(): { text: string; version: string } {
    if (this.file === undefined) return this.css;
    try {
      const st = statSync(this.file);
      if (st.mtimeMs !== this.css.mtime || st.size !== this.css.size) {
        const text = readFileSync(this.file, 'utf8');
        this.css = { text, version: hash(text), mtime: st.mtimeMs, size: st.size };
      }
    } catch {
      if (this.css.mtime !== -1) this.css = { text: STYLESHEET, version: hash(STYLESHEET), mtime: -1, size: -1 };
    }
    return this.css;
  }
}

function hash(s: string): string {
  return createHash('sha1').update(s).digest('hex').slice(0, 10);
}

export const STYLESHEET = `:root{color-scheme:light dark;--bg:#fff;--fg:#1d2327;--muted:#50575e;--line:#dcdcde;--accent:#0a58a8;--soft:#f0f4f8;--mark:#fff4d6}
@media (prefers-color-scheme:dark){:root{--bg:#16191c;--fg:#e8eaed;--muted:#b4b9be;--line:#3c434a;--accent:#8ab8f0;--soft:#22272c;--mark:#3a3320}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:1}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.site,footer.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;border-bottom:1px solid var(--line)}
footer.site{border-top:1px solid var(--line);border-bottom:0;margin-top:2rem;font-size:.9rem}
.site-title{font-weight:700;font-size:1.2rem;text-decoration:none;color:var(--fg)}
header nav ul,footer ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
main{display:block;max-width:64rem;margin:0 auto;padding:1rem}
h1{font-size:1.75rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
.bar{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;padding:.75rem;background:var(--soft);border-radius:6px;margin-bottom:1rem}
.field{display:flex;flex-direction:column;flex:1 1 12rem}
label{font-size:.9rem;color:var(--muted)}
input,button{font:inherit;padding:.45rem .6rem;border:1px solid var(--muted);border-radius:4px;background:var(--bg);color:var(--fg);min-height:2.5rem}
button{background:var(--accent);color:var(--bg);border-color:var(--accent);cursor:pointer}
ol.events{list-style:none;margin:0;padding:0}
.event{display:flex;gap:1rem;padding:1rem 0;border-bottom:1px solid var(--line)}
.event.featured{background:var(--mark);padding-left:.5rem}
.badge{flex:0 0 3.5rem;text-align:center;text-transform:uppercase;line-height:1.1}
.badge .m{display:block;font-size:.8rem;color:var(--muted)}.badge .d{display:block;font-size:1.6rem;font-weight:700}
.event .body{flex:1;min-width:0}
.event-title{margin:0 0 .25rem;font-size:1.15rem}
.when,.where,.cost{margin:.15rem 0;color:var(--muted)}
.summary{margin:.35rem 0}
.thumb{flex:0 0 auto;width:120px;height:90px;object-fit:cover;border-radius:4px}
.hero{max-width:100%;height:auto;border-radius:6px}
.pager{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0}
.views{margin:.5rem 0 1rem}
.empty{padding:1rem;background:var(--soft);border-radius:6px}
.status{padding:.5rem .75rem;background:var(--mark);border-left:4px solid var(--accent)}
table.month{width:100%;border-collapse:collapse;table-layout:fixed}
.month th{font-size:.85rem;color:var(--muted);padding:.25rem;text-align:left}
.month abbr{text-decoration:none}
.month td{vertical-align:top;border:1px solid var(--line);height:7rem;padding:.25rem;overflow:hidden}
.month td.other{background:var(--soft)}.month td.other .num{color:var(--muted)}
.month td.today .num{background:var(--accent);color:var(--bg);border-radius:50%}
.month .num{display:inline-block;min-width:1.8rem;padding:0 .3rem;text-align:center;font-weight:700;text-decoration:none}
.month .wd{display:none}
.month ul{list-style:none;margin:.25rem 0 0;padding:0;font-size:.85rem}
.month li{margin:.2rem 0;line-height:1.25;overflow-wrap:anywhere}
.month li a{text-decoration:none}.month li a:hover{text-decoration:underline}
.month .t{display:block;color:var(--muted);font-size:.75rem}
.month .more a{font-weight:700}
dl.details{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0}
dl.details div{display:contents}dt{font-weight:700}dd{margin:0}
.linked{margin-bottom:1rem}.linked .name{font-weight:700;margin:.25rem 0}
address{font-style:normal}
.contact,.add,.terms{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.description{max-width:42rem}
@media (max-width:640px){
.month thead{display:none}
.month,.month tbody,.month tr,.month td{display:block;width:100%}
.month td{height:auto;border-width:0 0 1px}
.month td.free,.month td.other{display:none}
.month .wd{display:inline}
.month td.today .num{border-radius:1rem}
.thumb{display:none}
h1{font-size:1.45rem}
}
`;
