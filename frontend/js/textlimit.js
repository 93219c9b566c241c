// Limits on what a person types, counted as the server counts them: in characters (Unicode code points),
// not in the UTF-16 units an input's maxlength counts, where an emoji or a rarer CJK character is two. With
// maxlength alone, a comment of such characters stopped at half its limit.

/** The first `max` characters of `text`, never cutting a character in two. */
export function clip(text, max) {
  let count = 0;
  let units = 0;
  for (const ch of text) {
    if (count === max) return text.slice(0, units);
    count += 1;
    units += ch.length;
  }
  return text;
}

/** Holds a text input or textarea to `max` characters as it is typed or pasted into. */
export function limitChars(el, max) {
  el.maxLength = 2 * max; // the most UTF-16 units `max` characters take: the browser's own cap never bites first
  el.dataset.maxChars = String(max);
  el.addEventListener("input", () => {
    const cut = clip(el.value, max);
    if (cut !== el.value) el.value = cut;
  });
  return el;
}
