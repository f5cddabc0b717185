// The cage (docs/protocol.md "The cage"): find a player by username, see their balance,
// limits and self-exclusion, and pay money in or out in euros, always with a reason (recorded
// in the audit log). A deposit past the player's limits, or while they are self-excluded, is
// refused by the server and the refusal worded here.

import { api, newKey } from "./api.js";
import { wordError } from "./errors.js";
import { centsText, dateTime, money, t, toCents } from "./i18n.js";
import { announce } from "./notify.js";
import { html, useEffect, useRef, useState } from "./ui.js";

const KINDS = ["deposit", "loss", "wager"];
const PERIODS = ["day", "week", "month"];

/** The cage form checked: {amount (cents), reason} or field -> error text. */
export function checkCage(amountText, reasonText) {
  const errors = {};
  const amount = toCents(amountText);
  if (amount === null || amount <= 0) errors.amount = t("op.err.amount");
  const reason = String(reasonText ?? "").trim();
  if (!reason) errors.reason = t("op.err.reason");
  else if (reason.length > 200) errors.reason = t("op.err.reason_long");
  return { amount, reason, errors };
}

function Responsible({ info }) {
  const ex = info.self_exclusion;
  return html`<div class="op-responsible" data-testid="cage-responsible">
    <p data-testid="cage-exclusion" class=${ex ? "bad" : "muted"}>${ex
      ? ex.permanent
        ? t("op.cage.excluded_forever")
        : t("op.cage.excluded_until", { until: dateTime(ex.until) })
      : t("op.cage.not_excluded")}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.cage.limits")}><table class="op-table">
      <caption class="sr-only">${t("op.cage.limits")}</caption>
      <thead><tr><th scope="col">${t("op.cage.limits")}</th>${PERIODS.map((p) => html`<th scope="col" key=${p}>${t(`op.period.${p}`)}</th>`)}</tr></thead>
      <tbody>${KINDS.map((k) => html`<tr key=${k} data-kind=${k}><th scope="row">${t(`op.limit.${k}`)}</th>
        ${PERIODS.map((p) => {
          const v = info.limits[k][p];
          return html`<td key=${p}>${v.limit == null ? "—" : t("op.cage.used_of", { used: money(v.used), limit: money(v.limit) })}</td>`;
        })}</tr>`)}</tbody>
    </table></div>
  </div>`;
}

export function OpCage() {
  const [query, setQuery] = useState("");
  const [found, setFound] = useState(null);
  const [player, setPlayer] = useState(null);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState({});
  const [problem, setProblem] = useState("");
  const [result, setResult] = useState("");
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState(null); // a checked move waiting for "Confirm"
  const confirmButton = useRef(null);
  useEffect(() => {
    if (pending && confirmButton.current) confirmButton.current.focus();
  }, [pending]);

  async function search(e) {
    e.preventDefault();
    setProblem("");
    if (!query.trim()) return;
    try {
      setFound(await api(`/api/operator/players?q=${encodeURIComponent(query.trim())}`));
    } catch (err) {
      setProblem(wordError(err));
    }
  }
  async function choose(username) {
    setResult("");
    setProblem("");
    try {
      setPlayer(await api(`/api/operator/cage/${encodeURIComponent(username)}`));
    } catch (err) {
      setProblem(wordError(err));
    }
  }
  // A credit or a debit is asked first, then confirmed: the amount, the player and the
  // reason said back in full before any money moves.
  const move = (kind) => (e) => {
    e.preventDefault();
    const checked = checkCage(amount, reason);
    setErrors(checked.errors);
    setProblem("");
    setResult("");
    if (Object.keys(checked.errors).length) return;
    setPending({ kind, amount: checked.amount, reason: checked.reason, key: newKey() });
  };
  async function confirm() {
    const { kind, amount: cents, reason: why, key } = pending;
    setBusy(true);
    try {
      const r = await api(`/api/operator/cage/${encodeURIComponent(player.username)}/${kind}`, {
        method: "POST",
        body: { amount: cents, reason: why },
        headers: { "Idempotency-Key": key },
      });
      setPending(null);
      const text = t(`op.cage.done_${kind}`, { amount: money(r.amount), username: r.username, balance: money(r.balance) });
      setResult(text);
      announce(text);
      setAmount("");
      setReason("");
      await choose(player.username);
      setResult(text);
    } catch (err) {
      setPending(null);
      setProblem(wordError(err));
    } finally {
      setBusy(false);
    }
  }

  return html`<div data-testid="op-cage">
    <form class="op-block op-form" onSubmit=${search} role="search" data-testid="cage-search">
      <h2>${t("op.cage.title")}</h2>
      <div class="op-inline">
        <label class="op-field" for="cage-q"><span>${t("op.cage.username")}</span>
          <input id="cage-q" value=${query} onInput=${(e) => setQuery(e.target.value)} autocomplete="off" data-testid="cage-query" /></label>
        <button class="btn" type="submit" data-testid="cage-find">${t("op.cage.find")}</button>
      </div>
      ${found && !found.length ? html`<p class="muted" data-testid="cage-none">${t("op.cage.none")}</p>` : null}
      ${found && found.length
        ? html`<ul class="op-found" data-testid="cage-found">${found.map((p) => html`<li key=${p.user_id}>
            <button type="button" class="btn small ghost" onClick=${() => choose(p.username)} data-testid=${`cage-pick-${p.username}`}>${p.username}</button>
            <span class="muted">${money(p.balance)}</span></li>`)}</ul>`
        : null}
    </form>
    ${player
      ? html`<section class="op-block" data-testid="cage-player" aria-labelledby="cage-player-name">
          <h2 id="cage-player-name">${player.username}</h2>
          <p>${t("op.cage.balance")} <strong data-testid="cage-balance">${money(player.balance)}</strong></p>
          <${Responsible} info=${player.responsible} />
          <form class="op-form" onSubmit=${move("credit")} data-testid="cage-form" novalidate>
            <div class="op-fields">
              <label class="op-field" for="cage-amount"><span>${t("op.cage.amount")}</span>
                <input id="cage-amount" inputmode="decimal" value=${amount} placeholder=${centsText(5000)} onInput=${(e) => setAmount(e.target.value)}
                  data-testid="cage-amount" aria-invalid=${errors.amount ? "true" : null} aria-describedby=${errors.amount ? "cage-amount-err" : null} />
                ${errors.amount ? html`<span class="field-error" id="cage-amount-err" role="alert" data-testid="cage-amount-error">${errors.amount}</span>` : null}</label>
              <label class="op-field wide" for="cage-reason"><span>${t("op.cage.reason")}</span>
                <input id="cage-reason" value=${reason} maxlength="200" onInput=${(e) => setReason(e.target.value)}
                  data-testid="cage-reason" aria-invalid=${errors.reason ? "true" : null} aria-describedby=${errors.reason ? "cage-reason-err" : null} />
                ${errors.reason ? html`<span class="field-error" id="cage-reason-err" role="alert" data-testid="cage-reason-error">${errors.reason}</span>` : null}</label>
            </div>
            <p class="form-error" role="alert" data-testid="cage-error">${problem}</p>
            ${pending
              ? html`<div class="op-confirm" role="alertdialog" aria-labelledby="cage-confirm-text" data-testid="cage-confirm">
                  <p id="cage-confirm-text" data-testid="cage-confirm-text">${t(`op.cage.confirm_${pending.kind}`, { amount: money(pending.amount), username: player.username, reason: pending.reason })}</p>
                  <div class="op-actions">
                    <button class="btn primary" type="button" disabled=${busy} onClick=${confirm} data-testid="cage-confirm-yes" ref=${confirmButton}>${t(`op.cage.confirm_${pending.kind}_button`, { amount: money(pending.amount) })}</button>
                    <button class="btn ghost" type="button" disabled=${busy} onClick=${() => setPending(null)} data-testid="cage-confirm-no">${t("btn.cancel")}</button>
                  </div>
                </div>`
              : html`<div class="op-actions">
                  <button class="btn primary" type="submit" disabled=${busy} data-testid="cage-credit">${t("op.cage.credit")}</button>
                  <button class="btn" type="button" disabled=${busy} onClick=${move("debit")} data-testid="cage-debit">${t("op.cage.debit")}</button>
                </div>`}
            <p class="good" role="status" data-testid="cage-result">${result}</p>
          </form>
          ${player.movements.length
            ? html`<div class="table-scroll" tabindex="0" role="region" aria-label=${t("op.cage.movements")}><table class="op-table" data-testid="cage-movements">
                <caption class="op-caption">${t("op.cage.movements")}</caption>
                <thead><tr><th scope="col">${t("cashier.when")}</th><th scope="col">${t("op.cage.kind")}</th><th scope="col">${t("op.cage.amount")}</th><th scope="col">${t("op.cage.reason")}</th></tr></thead>
                <tbody>${player.movements.map((m) => html`<tr key=${m.transaction_id}><td>${dateTime(m.at)}</td><td>${t(`op.cage.kind.${m.kind}`)}</td>
                  <td class=${m.amount >= 0 ? "good" : "bad"}>${money(m.amount)}</td><td>${m.memo}</td></tr>`)}</tbody>
              </table></div>`
            : null}
        </section>`
      : null}
    ${!player && problem ? html`<p class="form-error" role="alert">${problem}</p>` : null}
  </div>`;
}
