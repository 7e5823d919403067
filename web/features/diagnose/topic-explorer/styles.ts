/**
 * Styles of the Topic Explorer, in Pico's variables so both themes follow. They travel with the
 * explorer's chunk and are added to the page once, when it first opens.
 */
import { addStyleSheet } from '../../../lib/styles.ts';

const CSS = `
.tx-columns{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;align-items:start}
.tx-toolbar{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;margin-bottom:.6rem}
.tx-toolbar input[type=search]{flex:1 1 16rem;margin:0}
.tx-toolbar select{width:auto;margin:0;padding-top:.3rem;padding-bottom:.3rem}
.tx-state{display:inline-flex;align-items:center;gap:.35rem;font-size:.85rem;white-space:nowrap}
.tx-state::before{content:'';width:.55rem;height:.55rem;border-radius:50%;background:var(--pico-muted-border-color)}
.tx-state-connected::before{background:#1a9e5c}
.tx-state-connecting::before,.tx-state-reconnecting::before,.tx-state-disconnecting::before{background:#c98a00}
.tx-list{overflow:auto;position:relative;border:1px solid var(--pico-muted-border-color);border-radius:var(--pico-border-radius)}
.tx-list ul{position:relative;list-style:none;margin:0;padding:0;min-width:100%}
.tx-row{position:absolute;left:0;right:0;display:flex;align-items:center;gap:.5rem;margin:0;padding:0 .5rem;box-sizing:border-box;list-style:none;font-size:.85rem;white-space:nowrap;border-bottom:1px solid var(--pico-muted-border-color);cursor:pointer;outline:0}
.tx-row:hover{background:var(--pico-secondary-background-color,rgba(127,127,127,.08))}
.tx-row.tx-selected{background:color-mix(in srgb,var(--pico-primary) 14%,transparent)}
.tx-row:focus-visible{box-shadow:inset 0 0 0 2px var(--pico-primary)}
.tx-indent{flex:none}
.tx-toggle{flex:none;width:1.3rem;height:1.3rem;margin:0;padding:0;border:0;background:none;color:var(--pico-muted-color);font-size:.8rem;line-height:1}
.tx-toggle:disabled{opacity:1}
.tx-label{flex:1 1 6rem;min-width:3rem;display:flex;align-items:center;gap:.4rem;overflow:hidden}
.tx-name{min-width:0;overflow:hidden;text-overflow:ellipsis;padding:0 .3rem}
.tx-row .tx-preview{flex:1.5 1 0}
.tx-num{flex:none;width:4.5rem;text-align:right;font-variant-numeric:tabular-nums;font-size:.8rem}
.tx-row .tx-ago{width:5.5rem}
.tx-retained{flex:none;font-size:.72rem}
.tx-preview{flex:1 1 0;min-width:0;overflow:hidden;text-overflow:ellipsis;font-family:var(--pico-font-family-monospace);font-size:.8rem}
.tx-panel h4{font-size:.9rem;margin:1rem 0 .4rem}
.tx-topic{overflow-wrap:anywhere;white-space:normal}
.tx-panel .toolbar{flex-wrap:wrap}
.tx-panel .toolbar button{font-size:.85rem;padding:.3rem .7rem}
.tx-panel .descriptions{grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.4rem 1rem;font-size:.9rem}
.tx-history{list-style:none;margin:0;padding:0;max-height:16rem;overflow:auto;border:1px solid var(--pico-muted-border-color);border-radius:var(--pico-border-radius)}
.tx-history li{list-style:none;display:flex;gap:.5rem;align-items:center;margin:0;padding:.2rem .5rem;font-size:.8rem;white-space:nowrap;border-bottom:1px solid var(--pico-muted-border-color)}
.tx-history time{font-variant-numeric:tabular-nums}
.tx-diff{max-height:16rem;overflow:auto;margin:0;padding:.5rem;font-size:.8rem}
.tx-diff div{white-space:pre}
.tx-diff .tx-add{color:#1a7f4b;background:color-mix(in srgb,#1a9e5c 14%,transparent)}
.tx-diff .tx-del{color:var(--danger);background:color-mix(in srgb,var(--danger) 12%,transparent)}
[data-theme=dark] .tx-diff .tx-add{color:#4cc38a}
.tx-values{font-family:var(--pico-font-family-monospace);font-size:.8rem;margin:.3rem 0}
.tx-table{font-size:.85rem}
.tx-part{margin-bottom:.5rem}
.tx-part>summary h4{display:inline;margin:0}
.tx-table td,.tx-table th{padding:.25rem .5rem}
.tx-publish{margin-bottom:.75rem}
.tx-publish textarea{font-family:var(--pico-font-family-monospace);font-size:.85rem}
@media (max-width:1100px){.tx-columns{grid-template-columns:minmax(0,1fr)}}
`;

/** Adds the explorer's styles to the page (once). */
export function addExplorerStyles() {
  addStyleSheet('topic-explorer-styles', CSS);
}
