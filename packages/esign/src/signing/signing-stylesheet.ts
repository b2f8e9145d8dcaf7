/**
 * The signing pages' stylesheet (served at /signing/assets/signing.css). Mobile first: pages
 * scale to the screen's width and the action bar stays reachable at the top.
 */
export const SIGNING_STYLESHEET = `
@font-face{font-family:"Signet Script";src:url(/signing/assets/signature.otf) format("opentype");font-display:block}
body{font-family:system-ui,sans-serif;margin:0;color:#1d2330;background:#eceef2}
.bar{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.6rem 1rem;background:#1d2330;color:#fff}
.bar h1{font-size:1rem;margin:0;flex:1 1 12rem;overflow-wrap:anywhere}.bar p{margin:0;font-size:.85rem;flex:1 1 100%}
.bar form{margin:0}
button{padding:.5rem 1rem;font:inherit;cursor:pointer;border-radius:4px;border:1px solid #3056d3;background:#3056d3;color:#fff;min-height:2.5rem}
button.secondary{background:#fff;color:#3056d3}button:disabled{opacity:.5;cursor:not-allowed}
.documents{max-width:60rem;margin:0 auto;padding:.5rem}
.document h2{font-size:1rem;margin:1rem .25rem .5rem}
.page{position:relative;margin:0 auto 1rem;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.25);container-type:inline-size}
[hidden]{display:none!important}
.page img.render{display:block;width:100%;height:auto}
.tab{position:absolute;margin:0;padding:0;min-height:0;box-sizing:border-box;border:2px dashed #d39e00;background:rgba(255,214,0,.35);color:#5c4400;font-size:clamp(.55rem,1.6vw,.9rem);font-weight:600;display:flex;align-items:center;justify-content:center;overflow:hidden}
.tab.next{outline:3px solid #d39e00}
.tab.field,.tab.mark,.tab.auto,.tab.note{border:none;background:none;color:inherit;font-weight:400;display:block;overflow:visible;font-size:12px}
.tab.field input,.tab.field select,.tab.field output{box-sizing:border-box;width:100%;height:100%;min-height:24px;min-width:3rem;margin:0;padding:0 .2em;font:inherit;color:inherit;border:1px solid #3056d3;border-radius:2px;background:rgba(225,235,255,.85)}
.tab.field output{display:flex;align-items:center;border-style:dotted;background:rgba(240,240,240,.85)}
.tab.field input[readonly],.tab.field select:disabled{background:rgba(240,240,240,.85);border-style:dotted}
.tab.field input[aria-invalid],.tab.field select[aria-invalid]{border:2px solid #b3261e;background:rgba(255,235,235,.9)}
.tab.field input:focus,.tab.field select:focus,.tab.mark input:focus-visible,.tab.action:focus-visible{outline:3px solid #d39e00;outline-offset:1px}
.tab.mark{display:flex;align-items:center;justify-content:center;min-width:24px;min-height:24px}
.tab.mark input{margin:0;width:100%;height:100%;min-width:16px;min-height:16px;accent-color:#3056d3;cursor:pointer}
.tab.mark input[aria-invalid]{outline:2px solid #b3261e}
.tab.auto,.tab.note{display:flex;align-items:center;white-space:nowrap;background:rgba(240,240,240,.6);border:1px dotted #888}
.tab.action{font-size:clamp(.6rem,1.8vw,.9rem);min-height:24px;padding:0 .3em}
.tab.action.viewed{background:#e6f4ea}
.tab-message{position:absolute;left:0;top:100%;z-index:3;min-width:10rem;max-width:18rem;font-size:.75rem;line-height:1.2;color:#fff;background:#8e1c1c;border-radius:3px;padding:0 .3em;white-space:normal}
.tab-message:empty{display:none}
fieldset.radio-group{border:0;margin:0;padding:0;min-width:0}
.font-times{font-family:"Times New Roman",Times,serif}.font-courier{font-family:"Courier New",Courier,monospace}.font-helvetica{font-family:Helvetica,Arial,sans-serif}
.bold{font-weight:700}.italic{font-style:italic}.underline{text-decoration:underline}
.color-BrightBlue{color:#0070f0}.color-BrightRed{color:#e00}.color-DarkGreen{color:#006400}.color-DarkRed{color:#8b0000}.color-Gold{color:#b8860b}.color-Green{color:#008000}.color-NavyBlue{color:#000080}.color-Purple{color:#800080}.color-White{color:#fff}
.finish-error{flex:1 1 100%;margin:0;padding:.4rem .6rem;border-radius:4px;background:#fbe9e7;color:#8e1c1c;font-size:.85rem}
.tab.signed{border:1px solid transparent;background:transparent;color:#0d1a59;cursor:default}
.tab img{max-width:100%;max-height:100%}
.script,#typed-preview{font-family:"Signet Script",cursive;font-size:clamp(1rem,3.2vw,1.6rem);white-space:nowrap}
#typed-preview{display:block;min-height:2.5rem;border-bottom:1px solid #999;margin:.5rem 0;font-size:2rem}
dialog{border:none;border-radius:8px;padding:1rem;width:min(32rem,92vw);box-sizing:border-box}
dialog::backdrop{background:rgba(0,0,0,.4)}
dialog h2{margin-top:0;font-size:1.1rem}
label{display:block;margin:.5rem 0 .2rem}input[type=text],textarea{width:100%;padding:.5rem;box-sizing:border-box;font:inherit}
textarea{min-height:6rem}
.modes{display:flex;gap:1rem;border:none;padding:0;margin:0}.modes label{display:inline;margin:0}
canvas{width:100%;height:auto;aspect-ratio:3/1;border:1px solid #999;border-radius:4px;touch-action:none;background:#fff}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;margin-top:.75rem}
.error{color:#8e1c1c;min-height:1.2rem;margin:.25rem 0}
.notice{max-width:36rem;margin:2rem auto;background:#fff;border-radius:8px;padding:1.25rem 1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.notice h1{font-size:1.3rem;margin-top:0}
.manage{max-width:44rem;margin:1.5rem auto;background:#fff;border-radius:8px;padding:1.25rem 1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.manage fieldset{border:1px solid #ccd;border-radius:6px;margin:.75rem 0;padding:.5rem 1rem}.manage legend{font-weight:600}
.manage input[type=email],.manage input[type=number]{width:100%;padding:.5rem;box-sizing:border-box;font:inherit}
.manage .fixed{margin:.2rem 0;color:#333}.manage .finish-error{margin:.5rem 0}
.supplements{background:#fff;border-radius:8px;padding:.5rem 1rem;margin:1rem .25rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
.supplements h2{font-size:1rem}.supplements ul{list-style:none;margin:0;padding:0}
.supplement{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.5rem 0;border-top:1px solid #ddd}
.supplement-name{font-weight:600}.supplement-needs{font-size:.85rem;color:#5c4400}.supplement-accept{margin:0;flex:1 1 100%}
a.button{display:inline-block;padding:.5rem 1rem;border-radius:4px;border:1px solid #3056d3;text-decoration:none;min-height:1.5rem}
a.button.secondary{background:#fff;color:#3056d3}.supplement-view[data-viewed=true]{background:#e6f4ea}
a.button:focus-visible,.supplement input:focus-visible{outline:3px solid #d39e00;outline-offset:1px}
dialog.supplement-dialog{width:min(50rem,96vw)}.supplement-pages img{display:block;width:100%;height:auto;margin-bottom:.5rem;box-shadow:0 1px 4px rgba(0,0,0,.25)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
