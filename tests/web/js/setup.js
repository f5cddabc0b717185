// Browser globals the client's modules read when they load, for running them under Node.
const store = new Map();
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k),
};
globalThis.navigator = { languages: ["en-GB"], language: "en-GB" };
globalThis.document = { documentElement: { lang: "" }, title: "" };
globalThis.window = globalThis;
globalThis.matchMedia = () => ({ matches: false });

export const STATIC = new URL("../../../src/croupier/web/static/", import.meta.url);
export const load = (name) => import(new URL(name, STATIC).href);
