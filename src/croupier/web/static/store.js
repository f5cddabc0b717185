// The client's few pieces of shared state -- the session, the wallet's balance, the player's
// settings (language, sound, pace) -- with one subscribe() for components (useStore).

import { useSubscription } from "./ui.js";

const SESSION_KEY = "croupier.session";
const SETTINGS_KEY = "croupier.settings";
const listeners = new Set();

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

export const store = {
  session: readJson(SESSION_KEY),
  balance: null,
  settings: { sound: true, pace: "normal", locale: null, auto_confirm: false, ...(readJson(SETTINGS_KEY) || {}) },
  server: { turbo_pace: false }, // GET /api/client: what the operator allows (Turbo pace)
  cashier: null, // GET /api/cashier: {demo, ...} once known
};

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function changed() {
  for (const fn of [...listeners]) fn();
}

export function setSession(value) {
  store.session = value;
  if (value) localStorage.setItem(SESSION_KEY, JSON.stringify(value));
  else localStorage.removeItem(SESSION_KEY);
  if (!value) store.balance = null;
  changed();
}

export function setBalance(value) {
  if (typeof value !== "number" || value === store.balance) return;
  store.balance = value;
  changed();
}

export function setSetting(key, value) {
  store.settings = { ...store.settings, [key]: value };
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(store.settings));
  changed();
}

export function token() {
  return store.session ? store.session.token : null;
}

export function useStore() {
  return useSubscription(subscribe, () => store);
}
