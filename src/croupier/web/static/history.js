// Round history (the player's last 10 rounds, GET /api/rounds) and the deck-commitment check:
// SHA-256 of "<salt>:<deck>" must equal the commitment published before the deal
// (server/tables/fairness.py). Computed here, in the browser, with crypto.subtle.

import { api, h, money, signedMoney } from "./api.js";
import { cardRow, handName } from "./cards.js";

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
  if (!round.salt || !round.deck) return { ok: false, reason: "not revealed yet" };
  const cards = round.deck.split(" ");
  const distinct = new Set(cards);
  if (cards.length !== 52 || distinct.size !== 52) return { ok: false, reason: "the deck is not 52 distinct cards" };
  const digest = await sha256Hex(`${round.salt}:${round.deck}`);
  return digest === round.commitment ? { ok: true, digest } : { ok: false, digest, reason: "hash does not match the commitment" };
}

export async function checkCardCommitment(round) {
  const leaves = round.leaves || [];
  if (leaves.length !== 52) return { ok: false, reason: "the commitment does not have 52 leaves" };
  const digest = await sha256Hex(leaves.join(" "));
  if (digest !== round.commitment) return { ok: false, digest, reason: "leaves do not match the commitment" };
  const openings = Object.entries(round.openings || {});
  const cards = new Set();
  for (const [position, [salt, card]] of openings) {
    if ((await sha256Hex(`${salt}:${position}:${card}`)) !== leaves[Number(position)]) {
      return { ok: false, digest, reason: `card ${Number(position) + 1} does not match its leaf` };
    }
    cards.add(card);
  }
  if (cards.size !== openings.length) return { ok: false, digest, reason: "a card is opened twice" };
  return { ok: true, digest, opened: openings.length };
}

function myResult(round) {
  const players = round.players || [];
  const staked = players.reduce((t, p) => t + p.staked, 0);
  const returned = players.reduce((t, p) => t + p.returned, 0);
  return { staked, returned, net: returned - staked, seats: players.map((p) => p.seat) };
}

function roundCard(round) {
  const mine = myResult(round);
  const summary = round.summary || {};
  const results = (summary.results || []).filter((r) => mine.seats.includes(r.seat));
  const check = h("span", { class: "verify pending", testid: "verify" }, "checking…");
  const detail = h("div", { class: "verify-detail" });
  checkCommitment(round).then((res) => {
    check.className = `verify ${res.ok ? "ok" : "bad"}`;
    check.dataset.ok = String(res.ok);
    if (round.leaves) {
      const hidden = 52 - (res.opened || 0);
      check.textContent = res.ok ? `✓ ${res.opened} cards verified (${hidden} closed: hands not shown and cards not dealt)` : `✗ ${res.reason}`;
      const opened = Object.entries(round.openings || {}).sort((a, b) => a[0] - b[0]);
      detail.replaceChildren(
        h("div", {}, h("b", {}, "commitment "), h("code", {}, round.commitment)),
        h("div", {}, h("b", {}, "sha256(leaves) "), h("code", {}, res.digest || "—")),
        h("div", {}, h("b", {}, "cards opened "), h("code", { class: "deck" }, opened.map(([i, [, card]]) => `${Number(i) + 1}:${card}`).join(" "))),
      );
      return;
    }
    check.textContent = res.ok ? "✓ deck commitment verified" : `✗ ${res.reason}`;
    detail.replaceChildren(
      h("div", {}, h("b", {}, "commitment "), h("code", {}, round.commitment)),
      h("div", {}, h("b", {}, "salt "), h("code", {}, round.salt || "—")),
      h("div", {}, h("b", {}, "sha256(salt:deck) "), h("code", {}, res.digest || "—")),
      h("div", {}, h("b", {}, "deck "), h("code", { class: "deck" }, round.deck || "—")),
    );
  });
  const holeOf = (r) => {
    // Hole cards are not in the summary; in a casino round the record's deck gives them back:
    // the deal is one card at a time to each box in seat order, then the dealer (spec/uth.md).
    const rec = round.record || {};
    if (!rec.deck || !rec.bets || rec.config?.shared_hand) return rec.config?.shared_hand && rec.deck ? rec.deck.split(" ").filter((_, i) => i === 0 || i === 2) : [];
    const seats = rec.bets.map((b) => b.seat).sort((a, b) => a - b);
    const deck = rec.deck.split(" ");
    const i = seats.indexOf(r.seat);
    const n = seats.length + 1;
    return i < 0 ? [] : [deck[i], deck[i + n]];
  };
  return h(
    "article",
    { class: "round-card", testid: `round-${round.id}` },
    h(
      "header",
      {},
      h("h3", {}, `Round ${round.id}`),
      h("span", { class: "muted" }, `${round.table} · ${new Date(round.created_at).toLocaleString()}`),
      h("span", { class: `status ${round.status}` }, round.status),
      h("span", { class: `net ${mine.net > 0 ? "good" : mine.net < 0 ? "bad" : ""}`, testid: "round-net" }, signedMoney(mine.net)),
    ),
    h(
      "div",
      { class: "round-cards" },
      summary.dealer ? h("div", {}, h("small", {}, "Dealer"), cardRow(summary.dealer, 2, { small: true })) : null,
      summary.board ? h("div", {}, h("small", {}, "Board"), cardRow(summary.board, 5, { small: true })) : null,
      results.map((r) => h("div", {}, h("small", {}, `Your hand · ${handName(r.player_value)}`), cardRow(holeOf(r), 2, { small: true }))),
    ),
    h("p", {}, `Staked ${money(mine.staked)}, returned ${money(mine.returned)}`, round.void_reason ? ` · voided: ${round.void_reason}` : ""),
    h("details", {}, h("summary", {}, check), detail),
  );
}

export function historyPage({ view }) {
  const list = h("div", { class: "history-list", testid: "history" }, h("p", { class: "muted" }, "Loading…"));
  view.replaceChildren(
    h(
      "section",
      { class: "history" },
      h("h1", {}, "Your last rounds"),
      h("p", { class: "muted" }, "Before each deal the server publishes a SHA-256 commitment to the deck order; after the round it reveals the salt and the deck. Your browser checks that they match."),
      list,
    ),
  );
  api("/api/rounds?limit=10")
    .then((rounds) => {
      list.replaceChildren(...(rounds.length ? rounds.map(roundCard) : [h("p", { class: "muted" }, "No rounds yet.")]));
    })
    .catch((err) => list.replaceChildren(h("p", { class: "form-error" }, err.message)));
  return () => {};
}
