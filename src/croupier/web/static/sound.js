// Table sounds, synthesised with the Web Audio API (nothing fetched): a card dealt, chips
// placed, your turn, a win. Off with the mute switch (store.settings.sound).

import { store } from "./store.js";

let ctx = null;

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(ac, { freq, at = 0, dur = 0.08, type = "sine", gain = 0.08, slide = 0 }) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, t0 + dur);
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

const SOUNDS = {
  card: (ac) => tone(ac, { freq: 1800, dur: 0.05, type: "triangle", gain: 0.05, slide: 0.5 }),
  chip: (ac) => {
    tone(ac, { freq: 2600, dur: 0.04, type: "square", gain: 0.025 });
    tone(ac, { freq: 3100, at: 0.05, dur: 0.04, type: "square", gain: 0.02 });
  },
  turn: (ac) => tone(ac, { freq: 660, dur: 0.18, gain: 0.06 }),
  win: (ac) => [523, 659, 784, 1046].forEach((f, i) => tone(ac, { freq: f, at: i * 0.09, dur: 0.16, gain: 0.06 })),
  lose: (ac) => tone(ac, { freq: 330, dur: 0.25, gain: 0.05, slide: 0.7 }),
};

/** Play a table sound unless the player muted the table (or the browser has no audio). */
export function play(name) {
  if (!store.settings.sound || !SOUNDS[name]) return;
  try {
    const ac = audio();
    if (ac) SOUNDS[name](ac);
  } catch {
    /* no audio output: the table plays on silently */
  }
}
