// Per-browser preferences, remembered in localStorage.
const KEY = "tengen.settings";
const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const DEFAULTS = { confirmMove: coarse, countdown: "voice", stoneSound: true, notify: false, theme: null };

export function getSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function setSetting(name, value) {
  const s = getSettings();
  s[name] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch {
    /* storage may be disabled */
  }
  return s;
}
