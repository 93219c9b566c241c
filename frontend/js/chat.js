// Game chat with a players tab and a spectators tab. Messages are always inserted as text.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { clip, limitChars } from "./textlimit.js";

const MAX_CHARS = 500;

/** One chat line as a DOM node; name and text are text nodes, never markup. ``onReport`` (optional) adds a
 * button reporting the line to the moderators. */
export function renderMessage(msg, onReport = null) {
  const name = (msg.from && (msg.from.name || msg.from.username)) || "?";
  const when = msg.at ? new Date(msg.at * 1000) : null;
  return h(
    "li",
    { class: "chat-line", dataset: msg.v ? { v: msg.v } : {} },
    when ? h("time", { class: "chat-time", datetime: when.toISOString() }, when.toTimeString().slice(0, 5)) : null,
    h("strong", { class: "chat-name" }, name, msg.from && msg.from.rank ? h("span", { class: "rank" }, msg.from.rank) : null),
    h("span", { class: "chat-text" }, msg.text),
    typeof onReport === "function" && msg.v
      ? h("button", { type: "button", class: "chat-report", i18nTitle: "report.chat_line", i18nAria: "report.chat_line", onclick: () => onReport(msg) }, "⚑")
      : null,
  );
}

/**
 * options: onSend(channel, text) -> Promise. Call update(messages, {canRead, canWrite}) after each change,
 * where canRead/canWrite are lists of channels.
 */
export class Chat {
  constructor(container, { onSend, onReport = null, mayReport = () => false }) {
    this.onSend = onSend;
    this.onReport = onReport;
    this.mayReport = mayReport;
    this.channel = "players";
    this.messages = [];
    this.canRead = ["players"];
    this.canWrite = [];
    this.tabs = {
      players: h("button", { type: "button", role: "tab", class: "tab", i18n: "chat.players", onclick: () => this.select("players") }),
      spectators: h("button", { type: "button", role: "tab", class: "tab", i18n: "chat.spectators", onclick: () => this.select("spectators") }),
    };
    this.list = h("ol", { class: "chat-list", role: "log", "aria-live": "polite", i18nAria: "chat.log" });
    this.input = limitChars(h("input", { type: "text", class: "chat-input", i18nPlaceholder: "chat.placeholder", i18nAria: "chat.message" }), MAX_CHARS);
    this.sendBtn = h("button", { type: "submit", class: "btn", i18n: "chat.send" });
    this.form = h("form", { class: "chat-form", onsubmit: (ev) => this.submit(ev) }, this.input, this.sendBtn);
    this.note = h("p", { class: "chat-note muted", hidden: true });
    this.el = h(
      "section",
      { class: "chat", i18nAria: "chat.title" },
      h("div", { class: "tabs", role: "tablist" }, this.tabs.players, this.tabs.spectators),
      this.list,
      this.note,
      this.form,
    );
    container.append(this.el);
  }

  select(channel) {
    this.channel = channel;
    this.render();
  }

  update(messages, { canRead, canWrite }) {
    this.messages = messages;
    this.canRead = canRead;
    this.canWrite = canWrite;
    if (!canRead.includes(this.channel)) this.channel = canRead[0] || "players";
    this.render();
  }

  render() {
    for (const [channel, tab] of Object.entries(this.tabs)) {
      tab.hidden = !this.canRead.includes(channel);
      tab.setAttribute("aria-selected", String(channel === this.channel));
      tab.classList.toggle("active", channel === this.channel);
    }
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    replace(
      this.list,
      this.messages
        .filter((m) => (m.channel || "players") === this.channel)
        .map((m) => renderMessage(m, this.onReport && this.mayReport(m) ? this.onReport : null)),
    );
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    const writable = this.canWrite.includes(this.channel);
    this.form.hidden = !writable;
    this.note.hidden = writable;
    this.note.textContent = writable ? "" : t("chat.read_only");
  }

  async submit(ev) {
    ev.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.sendBtn.disabled = true;
    try {
      await this.onSend(this.channel, clip(text, MAX_CHARS));
      this.input.value = "";
    } catch {
      /* the page shows the error */
    } finally {
      this.sendBtn.disabled = false;
    }
  }
}
