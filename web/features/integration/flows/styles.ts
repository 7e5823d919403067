/**
 * Styles of the flow designer, canvas included, in Pico's variables so both themes follow. They
 * travel with the designer's chunk and are added to the page once, when it first opens.
 */
import { addStyleSheet } from '../../../lib/styles.ts';

const CSS = `
.flow-head{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,2fr) auto;gap:0 1rem;align-items:end}
.flow-head label{margin-bottom:0}
.flow-designer{display:grid;grid-template-columns:9.5rem minmax(0,1fr);gap:1rem;align-items:start;margin-top:1rem}
.flow-palette h4{font-size:.8rem;margin:.75rem 0 .3rem;color:var(--pico-muted-color);text-transform:uppercase;letter-spacing:.04em}
.flow-palette h4:first-of-type{margin-top:0}
.flow-palette button{display:block;width:100%;margin:0 0 .35rem;padding:.3rem .6rem;font-size:.875rem;text-align:left;border-left-width:4px}
.flow-palette .flow-source{border-left-color:var(--pico-primary)}
.flow-palette .flow-processing{border-left-color:var(--pico-muted-color)}
.flow-palette .flow-sink{border-left-color:var(--flow-sink)}
.flow-designer{--flow-sink:#2e9d6b}
.flow-stage{min-width:0;display:flex;flex-direction:column}
.flow-stage .flow-view{align-self:flex-end;width:auto;margin-bottom:.5rem}
.flow-stage .flow-view>button{flex:none;padding:.2rem .7rem;min-width:2.6rem;font-size:.85rem;line-height:1.4}
.flow-stage .flow-view>button:focus-visible{outline:2px solid var(--pico-primary);outline-offset:1px}
.flow-palette button[draggable=true]:not(:disabled){cursor:grab}
.flow-canvas{position:relative;height:clamp(300px,calc(100vh - 22rem),540px);display:flex;overflow:hidden;touch-action:none;outline:0;border:1px solid var(--pico-muted-border-color);border-radius:var(--pico-border-radius);background-color:var(--pico-card-background-color);background-image:radial-gradient(var(--pico-muted-border-color) 1px,transparent 1px);background-size:20px 20px}
[data-theme=dark] .flow-designer{--flow-sink:#4cc38a}
.flow-canvas .drawflow{position:relative;width:100%;height:100%;user-select:none;transform-origin:0 0}
.flow-canvas .parent-node{position:relative}
.flow-canvas .drawflow-node{position:absolute;display:flex;align-items:center;box-sizing:border-box;padding:.35rem .7rem;z-index:2;cursor:move;color:var(--pico-color);background:var(--pico-background-color);border:1px solid var(--pico-muted-border-color);border-left:4px solid var(--flow-accent);border-radius:var(--pico-border-radius);box-shadow:var(--pico-card-box-shadow)}
.flow-canvas .flow-source{--flow-accent:var(--pico-primary)}
.flow-canvas .flow-processing{--flow-accent:var(--pico-muted-color)}
.flow-canvas .flow-sink{--flow-accent:var(--flow-sink)}
.flow-canvas:focus-visible,.flow-canvas .drawflow-node.selected,.flow-canvas .drawflow-node:focus-visible{outline:2px solid var(--pico-primary);outline-offset:1px}
.flow-canvas .drawflow-node.flow-node-error{border-color:var(--danger);border-left-color:var(--danger)}
.flow-canvas .inputs,.flow-canvas .outputs{width:0}
.flow-canvas .drawflow_content_node{width:100%;min-width:0;display:block;overflow:hidden}
.flow-canvas .input,.flow-canvas .output{position:relative;box-sizing:border-box;width:16px;height:16px;border-radius:50%;border:2px solid var(--pico-muted-color);background:var(--pico-background-color);cursor:crosshair;z-index:1}
.flow-canvas .input{left:-23px}
.flow-canvas .output{left:5px}
.flow-canvas .input:hover,.flow-canvas .output:hover{border-color:var(--pico-primary);background:var(--pico-primary)}
.flow-canvas svg{position:absolute;overflow:visible!important;z-index:0}
.flow-canvas .connection{position:absolute;pointer-events:none}
.flow-canvas .main-path{fill:none;stroke-width:3px;stroke:var(--pico-muted-color);pointer-events:all}
.flow-canvas .main-path:hover,.flow-canvas .main-path.selected{stroke:var(--pico-primary);cursor:pointer}
.flow-canvas .drawflow-delete{position:absolute;display:block;width:24px;height:24px;line-height:22px;text-align:center;border-radius:50%;background:var(--danger);color:#fff;font-weight:700;cursor:pointer;z-index:4}
.flow-canvas .parent-node .drawflow-delete{right:-12px;top:-12px}
.flow-canvas .drawflow>.drawflow-delete{margin-left:-12px;margin-top:12px}
.flow-node-kind{font-size:.72rem;color:var(--pico-muted-color);line-height:1.3}
.flow-node-text{font-size:.85rem;line-height:1.3;font-family:var(--pico-font-family-monospace);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.flow-node-warning{font-size:.7rem;line-height:1.2;color:var(--danger)}
.flow-problems{margin:.75rem 0 0;padding:.5rem .75rem;border-left:4px solid var(--danger);color:var(--danger);background:var(--pico-card-background-color)}
.flow-problems ul{margin:0;padding-left:1rem}
.flow-problems li{list-style:disc}
.flow-field{display:grid;grid-template-columns:minmax(0,1fr) auto 7rem auto;gap:.4rem;align-items:center;margin-bottom:.4rem}
.flow-field input,.flow-field button{margin:0}
.flow-field .field-error{grid-column:1/-1}
.flow-connections{margin-top:1.5rem;padding-top:1rem;border-top:1px solid var(--pico-muted-border-color)}
.flow-connections ul{padding:0}
.flow-connections li{list-style:none;display:flex;justify-content:space-between;align-items:center;gap:.5rem;margin-bottom:.4rem}
.flow-connections li button{margin:0;padding:.15rem .5rem;font-size:.85rem}
@media (max-width:900px){.flow-designer,.flow-head{grid-template-columns:minmax(0,1fr)}}
`;

/** Adds the designer's styles to the page (once). */
export function addDesignerStyles() {
  addStyleSheet('flow-designer-styles', CSS);
}
