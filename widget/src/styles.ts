/**
 * Styles of both elements. Everything a host may want to change is a CSS custom property read with a
 * fallback, so `boxoffice-events { --boxoffice-accent: #7c3aed; }` on the host page themes the widget
 * through the shadow root; `::part(...)` names the main pieces for deeper changes.
 */
export const BASE_CSS = `
:host{display:block;container-type:inline-size;font:var(--boxoffice-font,inherit);color:var(--boxoffice-color,#1f2328);
--bo-accent:var(--boxoffice-accent,#0b5cad);--bo-accent-text:var(--boxoffice-accent-contrast,#fff);--bo-muted:var(--boxoffice-muted,#57606a);
--bo-border:var(--boxoffice-border,#8c959f);--bo-radius:var(--boxoffice-radius,8px);--bo-gap:var(--boxoffice-gap,16px);
--bo-bg:var(--boxoffice-background,transparent);--bo-surface:var(--boxoffice-surface,#fff);--bo-error:var(--boxoffice-error,#b3261e);--bo-focus:var(--boxoffice-focus,#0969da)}
:host([hidden]){display:none}
*{box-sizing:border-box}
.root{background:var(--bo-bg)}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
button{font:inherit;cursor:pointer;border-radius:var(--bo-radius);padding:.6em 1.2em;border:2px solid var(--bo-accent);background:var(--bo-accent);color:var(--bo-accent-text)}
button[disabled]{opacity:.6;cursor:progress}
a{color:var(--bo-accent)}
:focus-visible{outline:3px solid var(--bo-focus);outline-offset:2px}
.muted{color:var(--bo-muted)}
.message{padding:.8em 1em;border-radius:var(--bo-radius);border:1px solid var(--bo-border);background:var(--bo-surface)}
.message.error{border-color:var(--bo-error);color:var(--bo-error)}
`;

export const EVENTS_CSS = `
ul{list-style:none;margin:0;padding:0;display:grid;gap:var(--bo-gap);grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr))}
.card{display:flex;flex-direction:column;height:100%;border:1px solid var(--bo-border);border-radius:var(--bo-radius);overflow:hidden;background:var(--bo-surface)}
.card img{width:100%;aspect-ratio:16/9;object-fit:cover;display:block}
.body{padding:12px 16px;display:grid;gap:4px}
h3{margin:0;font-size:1.1em}
h3 a{color:inherit}
p{margin:0}
.price{font-weight:600}
.more{margin-top:var(--bo-gap);display:flex;justify-content:center}
`;

export const FORM_CSS = `
form{display:grid;gap:var(--bo-gap)}
h2{margin:0;font-size:1.4em}
.row{display:flex;gap:var(--bo-gap);align-items:flex-start}
.col{min-width:0;flex:var(--w) 1 0}
@container (max-width:560px){.row{flex-direction:column}.col{flex-basis:auto;width:100%}}
.field{display:grid;gap:6px}
fieldset{border:0;margin:0;padding:0;min-width:0}
fieldset.field>legend{padding:0;margin-bottom:6px}
.attendee{border:1px solid var(--bo-border);border-radius:var(--bo-radius);padding:var(--bo-gap);display:grid;gap:var(--bo-gap)}
.attendee>legend{font-weight:600;padding:0 .4em}
label,legend{font-weight:600}
.choice{display:flex;gap:.5em;align-items:center;font-weight:400}
.choices{display:grid;gap:6px}
input:not([type=radio]):not([type=checkbox]),select,textarea{font:inherit;width:100%;padding:.55em .7em;border:1px solid var(--bo-border);border-radius:var(--bo-radius);background:var(--bo-surface);color:inherit}
input[type=radio],input[type=checkbox]{width:1.15em;height:1.15em;accent-color:var(--bo-accent)}
textarea{min-height:6em;resize:vertical}
[aria-invalid=true]{border-color:var(--bo-error)!important}
.help{color:var(--bo-muted);font-size:.9em;margin:0}
.error{color:var(--bo-error);font-weight:600;margin:0}
.error:empty{display:none}
.req{color:var(--bo-error)}
.static p{margin:0 0 .6em}
.static img{max-width:100%;height:auto;display:block;border-radius:var(--bo-radius)}
.actions{display:flex}
.actions.center{justify-content:center}
.actions.fill button{width:100%}
.summary:empty{display:none}
.summary{border:2px solid var(--bo-error);border-radius:var(--bo-radius);padding:.8em 1em;color:var(--bo-error)}
.summary ul{margin:.4em 0 0;padding-left:1.2em}
.done{padding:1em;border:1px solid var(--bo-border);border-radius:var(--bo-radius);background:var(--bo-surface)}
`;
