// What the page says outside the table: a toast at the top of the screen (never over the
// decision buttons), and the live regions a screen reader reads (phase changes, results).

let timer = null;

/** A short message under the header; errors stay 6 s and can be dismissed. */
export function toast(message, kind = "info") {
  const el = document.getElementById("toast");
  if (!el) return;
  el.replaceChildren();
  const text = document.createElement("span");
  text.textContent = message;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.textContent = "×";
  close.setAttribute("aria-label", document.documentElement.lang === "it" ? "Chiudi" : document.documentElement.lang === "sl" ? "Zapri" : "Close");
  close.addEventListener("click", () => (el.className = ""));
  el.append(text, close);
  el.dataset.kind = kind;
  el.className = `show ${kind}`;
  clearTimeout(timer);
  timer = setTimeout(() => (el.className = ""), kind === "error" ? 6000 : 3500);
}

let last = "";

/** Say `text` in the polite live region (a phase change, a result). */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el || !text) return;
  // The same sentence twice in a row is still read: clear first, set on the next frame.
  el.textContent = "";
  last = text;
  requestAnimationFrame(() => {
    if (last === text) el.textContent = text;
  });
}
