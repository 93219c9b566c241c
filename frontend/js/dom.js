// Small DOM helpers. Text is always inserted as text nodes: no data ever reaches innerHTML.
import { t } from "./i18n.js";

/**
 * h("button", {class: "btn", onclick: fn, i18n: "lobby.create"}, "child", node)
 * Special attributes: i18n (text key), i18nAria (aria-label key), i18nTitle, i18nPlaceholder,
 * i18nParams (object), on<event> handlers, dataset (object), style (object or string).
 */
export function h(tag, attrs = {}, ...children) {
  const el = tag.includes(":")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.split(":")[1])
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "i18n") {
      el.dataset.i18n = value;
    } else if (key === "i18nAria") {
      el.dataset.i18nAria = value;
    } else if (key === "i18nTitle") {
      el.dataset.i18nTitle = value;
    } else if (key === "i18nPlaceholder") {
      el.dataset.i18nPlaceholder = value;
    } else if (key === "i18nParams") {
      el.dataset.i18nParams = JSON.stringify(value);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "value" && "value" in el) {
      el.value = value;
    } else if (key === "checked" || key === "selected" || key === "disabled" || key === "hidden") {
      el[key] = Boolean(value);
      if (key === "hidden") el.toggleAttribute("hidden", Boolean(value));
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  if (el.dataset.i18n || el.dataset.i18nAria || el.dataset.i18nTitle || el.dataset.i18nPlaceholder) {
    translateElement(el);
  }
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace the children of el with the given children. */
export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

function paramsOf(el) {
  try {
    return el.dataset.i18nParams ? JSON.parse(el.dataset.i18nParams) : {};
  } catch {
    return {};
  }
}

export function translateElement(el) {
  const params = paramsOf(el);
  if (el.dataset.i18n) el.textContent = t(el.dataset.i18n, params);
  if (el.dataset.i18nAria) el.setAttribute("aria-label", t(el.dataset.i18nAria, params));
  if (el.dataset.i18nTitle) el.setAttribute("title", t(el.dataset.i18nTitle, params));
  if (el.dataset.i18nPlaceholder) el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder, params));
}

/** Re-translate every element under root that carries an i18n key. */
export function translateTree(root = document) {
  const sel = "[data-i18n],[data-i18n-aria],[data-i18n-title],[data-i18n-placeholder]";
  if (root.matches && root.matches(sel)) translateElement(root);
  root.querySelectorAll(sel).forEach(translateElement);
}

/** Set an element's translated text (and remember the key for language switches). */
export function setText(el, key, params) {
  el.dataset.i18n = key;
  if (params) el.dataset.i18nParams = JSON.stringify(params);
  else delete el.dataset.i18nParams;
  translateElement(el);
}
