// The cashier: in demo mode (`make run`) a demo credit the player takes (bounded by a balance
// cap and a wait between credits); otherwise deposit requests an operator approves or
// refuses. The operator's queue of requests is here too (DepositQueue).

import { api, newKey } from "./api.js";
import { wordError } from "./errors.js";
import { centsText, dateTime, money, t, toCents } from "./i18n.js";
import { announce, toast } from "./notify.js";
import { setBalance, useStore } from "./store.js";
import { html, useEffect, useState } from "./ui.js";

export function CashierPage() {
  const s = useStore();
  const [info, setInfo] = useState(null);
  const [requests, setRequests] = useState([]);
  const [amount, setAmount] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  async function load() {
    try {
      const data = await api("/api/cashier");
      setInfo(data);
      if (!data.demo) setRequests(await api("/api/cashier/deposits"));
    } catch (err) {
      setError(wordError(err));
    }
  }
  useEffect(() => {
    load();
  }, []);

  async function demoCredit() {
    setBusy(true);
    setError("");
    try {
      const r = await api("/api/cashier/demo-credit", { method: "POST", headers: { "Idempotency-Key": newKey() } });
      setBalance(r.balance);
      toast(t("cashier.demo_done", { amount: money(r.amount) }), "info");
      announce(t("cashier.demo_done", { amount: money(r.amount) }));
    } catch (err) {
      setError(wordError(err));
    } finally {
      setBusy(false);
    }
  }
  async function deposit(e) {
    e.preventDefault();
    const cents = toCents(amount);
    if (!cents) {
      setError(t("cashier.amount_invalid"));
      return;
    }
    setBusy(true);
    setError("");
    try {
      await api("/api/cashier/deposits", { method: "POST", body: { amount: cents }, headers: { "Idempotency-Key": newKey() } });
      setAmount("");
      announce(t("cashier.requested", { amount: money(cents) }));
      await load();
    } catch (err) {
      setError(wordError(err));
    } finally {
      setBusy(false);
    }
  }
  async function cancel(id) {
    try {
      await api(`/api/cashier/deposits/${id}/cancel`, { method: "POST" });
      await load();
    } catch (err) {
      setError(wordError(err));
    }
  }

  return html`<section class="cashier" data-testid="cashier">
    <h1>${t("cashier.title")}</h1>
    <p class="cashier-balance">${t("cashier.balance")} <strong data-testid="cashier-balance">${money(s.balance)}</strong></p>
    ${info === null ? html`<p class="loading">${t("loading")}</p>` : null}
    ${info && info.demo
      ? html`<div class="panel">
          <h2>${t("cashier.demo_title")}</h2>
          <p>${t("cashier.demo_text", { amount: money(info.demo_credit), cap: money(info.demo_cap) })}</p>
          <button type="button" class="btn primary" data-testid="demo-credit" disabled=${busy} onClick=${demoCredit}>${t("cashier.demo_button", { amount: money(info.demo_credit) })}</button>
        </div>`
      : null}
    ${info && !info.demo
      ? html`<form class="panel" data-testid="deposit-form" onSubmit=${deposit}>
            <h2>${t("cashier.deposit_title")}</h2>
            <p class="muted">${t("cashier.deposit_text", { min: money(info.deposit_min), max: money(info.deposit_max) })}</p>
            <label>${t("cashier.amount")} <input class="amount" inputmode="decimal" data-testid="deposit-amount" value=${amount} placeholder=${centsText(5000)} onInput=${(e) => setAmount(e.target.value)} /></label>
            <button type="submit" class="btn primary" data-testid="deposit-submit" disabled=${busy}>${t("cashier.deposit_button")}</button>
          </form>
          <div class="panel"><h2>${t("cashier.requests")}</h2>
            ${requests.length
              ? html`<table class="requests" data-testid="deposits"><thead><tr><th>${t("cashier.when")}</th><th>${t("cashier.amount")}</th><th>${t("cashier.status")}</th><th><span class="sr-only">${t("cashier.actions")}</span></th></tr></thead>
                  <tbody>${requests.map((r) => html`<tr key=${r.id} data-status=${r.status}><td>${dateTime(r.created_at)}</td><td>${money(r.amount)}</td><td>${t(`cashier.status.${r.status}`)}</td>
                    <td>${r.status === "pending" ? html`<button type="button" class="btn small ghost" data-testid=${`cancel-${r.id}`} onClick=${() => cancel(r.id)}>${t("btn.cancel")}</button>` : null}</td></tr>`)}</tbody></table>`
              : html`<p class="muted">${t("cashier.none")}</p>`}
          </div>`
      : null}
    <p class="form-error" role="alert" data-testid="cashier-error">${error}</p>
    <p><a href="#/limits" data-testid="cashier-limits">${t("rg.title")}</a></p>
  </section>`;
}

/** The operator's queue of deposit requests: approve (credits the wallet) or refuse. */
export function DepositQueue() {
  const [list, setList] = useState(null);
  async function load() {
    try {
      setList(await api("/api/operator/deposits?status=pending"));
    } catch (err) {
      setList([]);
      toast(wordError(err), "error");
    }
  }
  useEffect(() => {
    load();
  }, []);
  async function decide(id, verb) {
    try {
      await api(`/api/operator/deposits/${id}/${verb}`, { method: "POST", body: {} });
      await load();
    } catch (err) {
      toast(wordError(err), "error");
    }
  }
  return html`<section class="op-block" data-testid="deposit-queue"><h2>${t("operator.deposits")}</h2>
    ${list && list.length
      ? html`<table class="op-table"><thead><tr><th>${t("operator.player")}</th><th>${t("cashier.amount")}</th><th>${t("cashier.when")}</th><th><span class="sr-only">${t("cashier.actions")}</span></th></tr></thead>
          <tbody>${list.map((r) => html`<tr key=${r.id} data-testid=${`deposit-${r.id}`}><td>${r.username}</td><td>${money(r.amount)}</td><td>${dateTime(r.created_at)}</td>
            <td><button type="button" class="btn small primary" data-testid=${`approve-${r.id}`} onClick=${() => decide(r.id, "approve")}>${t("operator.approve")}</button>
            <button type="button" class="btn small ghost" data-testid=${`refuse-${r.id}`} onClick=${() => decide(r.id, "refuse")}>${t("operator.refuse")}</button></td></tr>`)}</tbody></table>`
      : html`<p class="muted">${t("operator.no_deposits")}</p>`}
  </section>`;
}
