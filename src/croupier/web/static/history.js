// Round history, newest first, ten rounds a page (GET /api/rounds?limit=10&before=ID): the
// table's name, your cards, every action and each bet's result (each game's own
// `<game>_history.js`, from games.js), and the
// deck-commitment check: SHA-256 of "<salt>:<deck>" must equal the commitment published
// before the deal (server/tables/fairness.py), computed here in the browser; a Hold'em hand
// is committed card by card and each card opened to you is checked against its leaf.

import { api } from "./api.js";
import { gameOf, gameTitle } from "./games.js";
import { tableTitle } from "./tablecore.js";
import { wordError } from "./errors.js";
import { dateTime, has, money, number, signedMoney, t } from "./i18n.js";
import { html, useEffect, useState } from "./ui.js";

const PAGE = 10;

export async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  if (crypto.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", data);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256Fallback(data); // crypto.subtle exists only in secure contexts (https, localhost)
}

// FIPS 180-4 SHA-256, for pages served over plain http from another host.
function sha256Fallback(bytes) {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const len = bytes.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, len * 8);
  view.setUint32(padded.length - 8, Math.floor(len / 0x20000000));
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += hh;
  }
  return Array.from(H, (x) => x.toString(16).padStart(8, "0")).join("");
}

// Whether the revealed deck and salt hash to the commitment, and whether the deck is a
// permutation of the 52 cards. A Hold'em hand is committed card by card instead (its deck is
// never revealed whole, so folded hands stay private): the leaves must hash to the
// commitment and each card opened to this player must hash to its leaf.
export async function checkCommitment(round) {
  if (round.leaves) return checkCardCommitment(round);
  if (!round.salt || !round.deck) return { ok: false, reason: "not_revealed" };
  const cards = round.deck.split(" ");
  const distinct = new Set(cards);
  if (cards.length !== 52 || distinct.size !== 52) return { ok: false, reason: "not_52" };
  const digest = await sha256Hex(`${round.salt}:${round.deck}`);
  return digest === round.commitment ? { ok: true, digest } : { ok: false, digest, reason: "hash_mismatch" };
}

export async function checkCardCommitment(round) {
  const leaves = round.leaves || [];
  if (leaves.length !== 52) return { ok: false, reason: "not_52_leaves" };
  const digest = await sha256Hex(leaves.join(" "));
  if (digest !== round.commitment) return { ok: false, digest, reason: "leaves_mismatch" };
  const openings = Object.entries(round.openings || {});
  const cards = new Set();
  for (const [position, [salt, card]] of openings) {
    if ((await sha256Hex(`${salt}:${position}:${card}`)) !== leaves[Number(position)]) {
      return { ok: false, digest, reason: "card_mismatch", n: Number(position) + 1 };
    }
    cards.add(card);
  }
  if (cards.size !== openings.length) return { ok: false, digest, reason: "card_twice" };
  return { ok: true, digest, opened: openings.length };
}

function myResult(round) {
  const players = round.players || [];
  const staked = players.reduce((a, p) => a + p.staked, 0);
  const returned = players.reduce((a, p) => a + p.returned, 0);
  return { staked, returned, net: returned - staked, seats: players.map((p) => p.seat) };
}

function Verify({ round }) {
  const [res, setRes] = useState(null);
  useEffect(() => {
    let stop = false;
    checkCommitment(round).then((r) => !stop && setRes(r));
    return () => (stop = true);
  }, [round.id]);
  if (!res) return html`<span class="verify pending" data-testid="verify">${t("history.checking")}</span>`;
  let text;
  const why = () => `✗ ${t(`history.verify.${res.reason}`, { n: res.n })}`;
  if (round.leaves) text = res.ok ? t("history.cards_verified", { n: res.opened, closed: 52 - (res.opened || 0) }) : why();
  else text = res.ok ? t("history.deck_verified") : why();
  return html`<span class=${`verify ${res.ok ? "ok" : "bad"}`} data-testid="verify" data-ok=${String(res.ok)}>${text}</span>`;
}

function VerifyDetail({ round }) {
  if (round.leaves) {
    const opened = Object.entries(round.openings || {}).sort((a, b) => a[0] - b[0]);
    return html`<div class="verify-detail"><div><b>${t("history.verify.commitment")} </b><code>${round.commitment}</code></div>
      <div><b>${t("history.opened")} </b><code class="deck">${opened.map(([i, [, card]]) => `${Number(i) + 1}:${card}`).join(" ")}</code></div></div>`;
  }
  return html`<div class="verify-detail"><div><b>${t("history.verify.commitment")} </b><code>${round.commitment}</code></div><div><b>${t("history.verify.salt")} </b><code>${round.salt || "—"}</code></div><div><b>${t("history.verify.deck")} </b><code class="deck">${round.deck || "—"}</code></div></div>`;
}

// An option of a decision in the player's words, as the game's Hint words it: the game's own
// wording (games.js `option`), else `action.<action>`; the server's English label when the
// record names no option as data (an older server) or the language has no word for it.
function optionText(game, option, label) {
  if (!option) return label;
  if (game.option) return game.option(option);
  return has(`action.${option.action}`) ? t(`action.${option.action}`) : label;
}

// What each decision cost against the best one (GET /api/rounds/{id}/costs, the exact
// advisor of issue 32), asked on demand: valuing a first decision takes the server a moment.
// The figures are per Ante, in the language's decimals.
function Costs({ round, game }) {
  const [state, setState] = useState(null);
  async function ask() {
    setState({ asking: true });
    try {
      setState(await api(`/api/rounds/${round.id}/costs`));
    } catch (err) {
      setState({ error: wordError(err) });
    }
  }
  if (!state) return html`<button type="button" class="btn ghost small" data-testid="costs-ask" onClick=${ask}>${t("history.costs.ask")}</button>`;
  if (state.asking) return html`<p class="muted" role="status">${t("history.costs.asking")}</p>`;
  if (state.error || !state.costs) return html`<p class="muted" role="status">${state.error || t("table.hint.none")}</p>`;
  const ev = (x) => `${x >= 0 ? "+" : ""}${number(x, 3)}`;
  const line = (c) => t("history.costs.line", {
    box: t("box.n", { n: c.box + 1 }),
    taken: optionText(game, c.taken_option, c.taken),
    taken_ev: ev(c.taken_ev),
    best: optionText(game, c.best_option, c.best),
    best_ev: ev(c.best_ev),
    cost: money(c.cost_money),
    antes: number(c.cost, 3),
  });
  return html`<ul class="history-costs" data-testid="costs">
    ${state.costs.map((c, i) => html`<li key=${i} data-cost=${c.cost_money}>${line(c)}</li>`)}
  </ul>`;
}

function RoundCard({ round, titles }) {
  const mine = myResult(round);
  const game = gameOf(round.game);
  const detail = game && game.history ? game.history(round, mine.seats) : null;
  return html`<article class="round-card" data-testid=${`round-${round.id}`} aria-labelledby=${`r-${round.id}`}>
    <header>
      <h2 id=${`r-${round.id}`}>${titles[round.table] || gameTitle(round.game)}</h2>
      <span class="muted">${t("round.n", { n: round.id })} · ${dateTime(round.created_at)}</span>
      ${round.status !== "settled" ? html`<span class=${`status ${round.status}`}>${t(`history.status.${round.status}`)}</span>` : null}
      <span class=${`net ${mine.net > 0 ? "good" : mine.net < 0 ? "bad" : ""}`} data-testid="round-net">${signedMoney(mine.net)}</span>
    </header>
    ${detail}
    ${game && game.costs && round.status === "settled" ? html`<${Costs} round=${round} game=${game} />` : null}
    <p>${t("history.staked", { staked: money(mine.staked), returned: money(mine.returned) })}${round.void_reason ? ` · ${t("log.voided")}` : ""}</p>
    <details><summary><${Verify} round=${round} /></summary><${VerifyDetail} round=${round} /></details>
  </article>`;
}

export function HistoryPage() {
  const [cursors, setCursors] = useState([null]); // the `before` of each page seen
  const [rounds, setRounds] = useState(null);
  const [error, setError] = useState(null);
  const [titles, setTitles] = useState({});
  const before = cursors[cursors.length - 1];
  useEffect(() => {
    api("/api/tables").then((list) => setTitles(Object.fromEntries(list.map((tb) => [tb.name, tableTitle(tb)])))).catch(() => {});
  }, []);
  useEffect(() => {
    let stop = false;
    setRounds(null);
    api(before == null ? `/api/rounds?limit=${PAGE}` : `/api/rounds?limit=${PAGE}&before=${before}`)
      .then((r) => !stop && setRounds(r))
      .catch((err) => !stop && setError(wordError(err)));
    return () => (stop = true);
  }, [before]);
  const older = rounds && rounds.length === PAGE ? rounds[rounds.length - 1].id : null;
  return html`<section class="history">
    <h1>${t("history.title")}</h1>
    <p class="muted">${t("history.explain")}</p>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    <div class="history-list" data-testid="history">
      ${rounds === null && !error ? html`<p class="muted">${t("loading")}</p>` : null}
      ${rounds && !rounds.length ? html`<p class="muted">${t("history.none")}</p>` : null}
      ${(rounds || []).map((r) => html`<${RoundCard} key=${r.id} round=${r} titles=${titles} />`)}
    </div>
    <nav class="pager" aria-label=${t("history.pages")}>
      <button type="button" class="btn" data-testid="history-newer" disabled=${cursors.length < 2} onClick=${() => setCursors(cursors.slice(0, -1))}>${t("history.newer")}</button>
      <span class="muted">${t("history.page", { n: cursors.length })}</span>
      <button type="button" class="btn" data-testid="history-older" disabled=${!older} onClick=${() => setCursors([...cursors, older])}>${t("history.older")}</button>
    </nav>
  </section>`;
}
