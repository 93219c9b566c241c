// Every visible string goes through t(). One dictionary file per language in /i18n/.
import en from "../i18n/en.js";
import zh from "../i18n/zh.js";
import vi from "../i18n/vi.js";
import es from "../i18n/es.js";
import ja from "../i18n/ja.js";
import ko from "../i18n/ko.js";

export const LANGUAGES = [
  { code: "en", name: "English", speech: "en-US" },
  { code: "zh", name: "中文", speech: "zh-CN" },
  { code: "vi", name: "Tiếng Việt", speech: "vi-VN" },
  { code: "es", name: "Español", speech: "es-ES" },
  { code: "ja", name: "日本語", speech: "ja-JP" },
  { code: "ko", name: "한국어", speech: "ko-KR" },
];
const DICTIONARIES = { en, zh, vi, es, ja, ko };
const STORAGE_KEY = "tengen.lang";
const listeners = new Set();
let current = detectLanguage();

/** The stored choice, else the first supported browser language, else English. */
export function detectLanguage() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && DICTIONARIES[stored]) return stored;
  } catch {
    /* storage may be disabled */
  }
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (DICTIONARIES[base]) return base;
  }
  return "en";
}

export function getLanguage() {
  return current;
}

export function speechLang() {
  return LANGUAGES.find((l) => l.code === current).speech;
}

export function setLanguage(code) {
  if (!DICTIONARIES[code]) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* storage may be disabled */
  }
  document.documentElement.lang = code === "zh" ? "zh-Hans" : code;
  for (const fn of listeners) fn(code);
}

export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate key, replacing {name} placeholders from params. Falls back to English, then the key. */
export function t(key, params = {}) {
  let text = DICTIONARIES[current][key];
  if (text === undefined) text = en[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function hasKey(key) {
  return key in en;
}
