// Small SVG line plots for the operator's console (no library): series of points over days or
// rounds, an optional band (the 95 % interval an actual return should fall in) and a dashed
// reference line (the theoretical return). Labels come in the page's language.

import { html } from "./ui.js";

const PAD = { l: 64, r: 30, t: 14, b: 34 }; // room on the right for the last x label

function extent(values, { floor = null, ceil = null } = {}) {
  const finite = values.filter((v) => v != null && Number.isFinite(v));
  let lo = finite.length ? Math.min(...finite) : 0;
  let hi = finite.length ? Math.max(...finite) : 1;
  if (floor != null) lo = Math.min(lo, floor);
  if (ceil != null) hi = Math.max(hi, ceil);
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

/**
 * A plot. `xs`: the x labels (one per point, e.g. days); `series`: [{name, cls, values}] with a
 * value (or null) per x; `band`: [[lo, hi] | null] per x; `reference`: a y value drawn dashed;
 * `format`: y value -> label text; `label`: the plot's accessible name.
 */
export function LinePlot({ xs, series, band = null, reference = null, format = String, label, testid, width = 720, height = 240 }) {
  const all = series.flatMap((s) => s.values).concat(band ? band.flat() : []);
  const [lo, hi] = extent(all.concat(reference == null ? [] : [reference]));
  const n = Math.max(2, xs.length);
  const x = (i) => PAD.l + (i / (n - 1)) * (width - PAD.l - PAD.r);
  const y = (v) => PAD.t + (1 - (v - lo) / (hi - lo)) * (height - PAD.t - PAD.b);
  const ticks = [0, 1, 2, 3, 4].map((k) => lo + ((hi - lo) * k) / 4);
  const every = Math.max(1, Math.ceil(xs.length / 7));
  const bandPath = band
    ? (() => {
        const idx = band.map((b, i) => (b ? i : -1)).filter((i) => i >= 0);
        if (!idx.length) return null;
        const top = idx.map((i, k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(band[i][1]).toFixed(1)}`).join("");
        const bottom = idx.slice().reverse().map((i) => `L${x(i).toFixed(1)},${y(band[i][0]).toFixed(1)}`).join("");
        return `${top}${bottom}Z`;
      })()
    : null;
  const line = (values) => {
    let d = "";
    let pen = false;
    values.forEach((v, i) => {
      if (v == null || !Number.isFinite(v)) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  return html`<figure class="plot-figure">
    <svg viewBox=${`0 0 ${width} ${height}`} class="plot" role="img" aria-label=${label} data-testid=${testid}>
      <rect x=${PAD.l} y=${PAD.t} width=${width - PAD.l - PAD.r} height=${height - PAD.t - PAD.b} class="plot-bg" />
      ${ticks.map((v) => html`<g key=${v}><line x1=${PAD.l} x2=${width - PAD.r} y1=${y(v)} y2=${y(v)} class="grid" /><text x=${PAD.l - 6} y=${y(v) + 4} text-anchor="end" class="axis">${format(v)}</text></g>`)}
      ${xs.map((label_, i) => ((i % every === 0 && xs.length - 1 - i >= Math.ceil(every / 2)) || i === xs.length - 1 ? html`<text key=${i} x=${x(i)} y=${height - 12} text-anchor="middle" class="axis">${label_}</text>` : null))}
      ${bandPath ? html`<path d=${bandPath} class="band" data-testid="plot-band" />` : null}
      ${reference != null ? html`<line x1=${PAD.l} x2=${width - PAD.r} y1=${y(reference)} y2=${y(reference)} class="theory" />` : null}
      ${series.map((s) => html`<g key=${s.name}>
        <path d=${line(s.values)} class=${`series ${s.cls || ""}`} data-series=${s.name} />
        ${s.values.map((v, i) => (v == null ? null : html`<circle key=${i} cx=${x(i)} cy=${y(v)} r="3" class=${`dot ${s.cls || ""}`}><title>${`${xs[i]}: ${format(v)}`}</title></circle>`))}
      </g>`)}
    </svg>
    ${series.length > 1 || reference != null || band
      ? html`<figcaption class="plot-legend">${series.map((s) => html`<span key=${s.name} class=${`key ${s.cls || ""}`}>${s.name}</span>`)}</figcaption>`
      : null}
  </figure>`;
}
