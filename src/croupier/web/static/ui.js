// The component layer: Preact (a 4 kB virtual DOM that updates the page in place, so focus
// and scroll survive every frame) with htm's tagged templates instead of a build step.
// Both are vendored ES modules (vendor/VERSIONS.txt, scripts/vendor-web.sh).

import { Fragment, h, render } from "./vendor/preact.module.js";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "./vendor/hooks.module.js";
import htm from "./vendor/htm.module.js";

export const html = htm.bind(h);
export { Fragment, h, render, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState };

/** A value that re-renders the component whenever `subscribe` reports a change. */
export function useSubscription(subscribe, read) {
  const [, force] = useState(0);
  useEffect(() => subscribe(() => force((n) => n + 1)), [subscribe]);
  return read();
}

/** A clock for one component: re-render every `ms` while `active`. */
export function useTicker(active, ms = 250) {
  const [, force] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const id = setInterval(() => force((n) => n + 1), ms);
    return () => clearInterval(id);
  }, [active, ms]);
}

/** Whether the window matches a CSS media query now (re-rendered when that changes). */
export function useMedia(query) {
  const list = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(query) : null;
  const [matches, setMatches] = useState(list ? list.matches : false);
  useEffect(() => {
    if (!list) return undefined;
    const onChange = () => setMatches(list.matches);
    list.addEventListener("change", onChange);
    onChange();
    return () => list.removeEventListener("change", onChange);
  }, [query]);
  return matches;
}
