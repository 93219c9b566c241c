// Light and dark: the system's setting by default, or the reader's own choice from the switch in the header.
import { h } from "./dom.js";
import { getSettings, setSetting } from "./settings.js";

const dark = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;

/** "dark" or "light": the stored choice, else what the system prefers. */
export function currentTheme() {
  const chosen = getSettings().theme;
  if (chosen === "dark" || chosen === "light") return chosen;
  return dark && dark.matches ? "dark" : "light";
}

export function applyTheme() {
  document.documentElement.dataset.theme = currentTheme();
}

/** The header's switch: a toggle button, pressed in dark mode. */
export function themeSwitch() {
  const moon = h("svg:svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    h("svg:path", { d: "M6 1a7 7 0 1 0 9 9A6 6 0 0 1 6 1z", fill: "currentColor" }));
  const button = h("button", { type: "button", id: "theme", class: "btn icon theme-switch", i18nAria: "nav.dark_mode", i18nTitle: "nav.dark_mode" }, moon);
  const sync = () => {
    applyTheme();
    button.setAttribute("aria-pressed", String(currentTheme() === "dark"));
  };
  button.addEventListener("click", () => {
    setSetting("theme", currentTheme() === "dark" ? "light" : "dark");
    sync();
  });
  if (dark) dark.addEventListener("change", sync);
  sync();
  return button;
}
