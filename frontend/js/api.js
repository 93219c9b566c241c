// Every REST call the frontend makes, in one place. JSON under /api; errors are
// {"error": {"code", "message"}} and surface as ApiError. The session cookie is set by the server.
import { getLanguage } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body, raw = null) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (raw !== null) {
    init.headers["Content-Type"] = raw.type;
    init.body = raw.body;
  } else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network_error", "");
  }
  const text = await response.text();
  if (response.ok && raw && raw.text) return text;
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const error = new ApiError(response.status, err.code || `http_${response.status}`, err.message || "");
    if (typeof err.move === "number") error.move = err.move; // the move a record's upload was refused at
    throw error;
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  // accounts
  me: () => request("GET", "/api/me"),
  startGuest: () => request("POST", "/api/guest"),
  register: (username, password, strength) =>
    request("POST", "/api/auth/register", strength ? { username, password, strength } : { username, password }),
  login: (username, password) => request("POST", "/api/auth/login", { username, password }),
  logout: () => request("POST", "/api/auth/logout"),
  resetRequest: (email) => request("POST", "/api/auth/reset-request", { email, language: getLanguage() }),
  reset: (token, password) => request("POST", "/api/auth/reset", { token, password }),

  // email: the address (verified by a mailed link), what is mailed, unsubscribe
  email: () => request("GET", "/api/me/email"),
  // The language sent along is the one the messages are written in.
  setEmail: (email) => request("PUT", "/api/me/email", { email, language: getLanguage() }),
  removeEmail: () => request("DELETE", "/api/me/email"),
  setMailMode: (mode) => request("PUT", "/api/me/email/preferences", { mode, language: getLanguage() }),
  verifyEmail: (token) => request("POST", "/api/email/verify", { token }),
  unsubscribe: (token) => request("POST", `/api/email/unsubscribe?token=${enc(token)}`),

  // correspondence: weekend pause and time zone, vacation
  correspondence: () => request("GET", "/api/me/correspondence"),
  setCorrespondence: (weekend_pause, time_zone) => request("PUT", "/api/me/correspondence", { weekend_pause, time_zone }),
  setVacation: (on) => request("POST", "/api/me/vacation", { on }),

  // challenges
  challenges: () => request("GET", "/api/challenges"),
  challenge: (id, token) => request("GET", `/api/challenges/${enc(id)}${token ? `?token=${enc(token)}` : ""}`),
  createChallenge: (spec) => request("POST", "/api/challenges", spec),
  cancelChallenge: (id) => request("DELETE", `/api/challenges/${enc(id)}`),
  acceptChallenge: (id, token) => request("POST", `/api/challenges/${enc(id)}/accept`, token ? { token } : undefined),

  // bots: every bot (the server's own have house: true)
  bots: () => request("GET", "/api/bots"),

  // games
  liveGames: () => request("GET", "/api/games/live"),
  game: (id) => request("GET", `/api/games/${enc(id)}`),
  myActiveGames: () => request("GET", "/api/me/games/active"),
  myHistory: () => request("GET", "/api/me/games/history"),
  sgfUrl: (id) => `/api/games/${enc(id)}/sgf`,
  // the score estimate after a game's first `move` moves (docs/study.md): spectators, and anyone once it ended
  gameEstimate: (id, move) => request("POST", `/api/games/${enc(id)}/estimate`, { move }),
  // the AI review of a finished game (docs/review.md)
  aiReview: (id) => request("GET", `/api/games/${enc(id)}/review`),
  requestAiReview: (id, depth) => request("POST", `/api/games/${enc(id)}/review`, { depth }),
  aiRecords: () => request("GET", "/api/ai-reviews/records"),
  aiRecordReview: (id) => request("GET", `/api/ai-reviews/records/${enc(id)}`),
  requestAiRecordReview: (id, depth) => request("POST", `/api/ai-reviews/records/${enc(id)}/review`, { depth }),
  uploadAiRecord: (sgf, reviewId) =>
    request("POST", `/api/ai-reviews/records${reviewId ? `?review=${enc(reviewId)}` : ""}`, undefined, { type: "application/x-go-sgf; charset=utf-8", body: sgf }),
  deleteAiRecord: (id) => request("DELETE", `/api/ai-reviews/records/${enc(id)}`),

  // players, ratings and the archive
  player: (name) => request("GET", `/api/players/${enc(name)}`),
  playerHistory: (name, category = "overall") => request("GET", `/api/players/${enc(name)}/history?category=${enc(category)}`),
  suggestedHandicap: (name, size) => request("GET", `/api/players/${enc(name)}/handicap?size=${enc(size)}`),
  // tournaments (docs/tournaments.md)
  tournaments: (status = null) => request("GET", status ? `/api/tournaments?status=${enc(status)}` : "/api/tournaments"),
  tournament: (id) => request("GET", `/api/tournaments/${enc(id)}`),
  createTournament: (body) => request("POST", "/api/tournaments", body),
  tournamentAction: (id, path, body) => request("POST", `/api/tournaments/${enc(id)}/${path}`, body),
  leaderboard: (category = "overall", page = 1) => request("GET", `/api/leaderboard?category=${enc(category)}&page=${enc(page)}`),

  // ladders (docs/ladders.md): each rung says whether the caller may challenge it, and if not, why (a code)
  ladders: () => request("GET", "/api/ladders"),
  ladder: (id) => request("GET", `/api/ladders/${enc(id)}`),
  ladderHistory: (id, before = null) => request("GET", `/api/ladders/${enc(id)}/history${before ? `?before=${enc(before)}` : ""}`),
  ladderJoin: (id) => request("POST", `/api/ladders/${enc(id)}/join`),
  ladderLeave: (id) => request("POST", `/api/ladders/${enc(id)}/leave`),
  ladderChallenge: (id, defenderId, color) => request("POST", `/api/ladders/${enc(id)}/challenges`, { defender_id: defenderId, color }),
  ladderAccept: (challengeId) => request("POST", `/api/ladders/challenges/${enc(challengeId)}/accept`),
  ladderDecline: (challengeId) => request("POST", `/api/ladders/challenges/${enc(challengeId)}/decline`),
  archive: (params) => request("GET", `/api/archive?${new URLSearchParams(params)}`),

  // analysis boards (docs/study.md): the server applies every rule; the tree stays in the browser
  studyPosition: (setup, line) => request("POST", "/api/study/position", { setup, line }),
  // the position after a stored game's moves and a line (its ko and superko judged with the game's history)
  gamePosition: (gameId, line) => request("POST", "/api/study/position", { game_id: gameId, line }),
  studyEstimate: (setup, line) => request("POST", "/api/study/estimate", { setup, line }),
  studyHints: (setup, line) => request("POST", "/api/study/hints", { setup, line }),
  studyGame: (id) => request("GET", `/api/study/games/${enc(id)}`),
  // A file goes as its bytes (the server reads them in the character set its CA names); pasted text is
  // characters already, and says so with its charset.
  studyImport: (sgf) =>
    request("POST", "/api/study/sgf", undefined, { type: typeof sgf === "string" ? "application/x-go-sgf; charset=utf-8" : "application/x-go-sgf", body: sgf }),
  studyExport: (doc) => request("POST", "/api/study/export", undefined, { type: "application/json", body: JSON.stringify(doc), text: true }),
  // shared reviews (docs/study.md, "Shared reviews")
  createReview: (body) => request("POST", "/api/reviews", body),
  gameReviews: (gameId) => request("GET", `/api/games/${enc(gameId)}/reviews`),
  myReviews: () => request("GET", "/api/me/reviews"),
  reviewSgfUrl: (id) => `/api/reviews/${enc(id)}/sgf`,

  // practice (rules page): one person plays both colours, not rated, not listed
  createPractice: (size = 9) => request("POST", "/api/practice", { size }),

  // blocks and reports (docs/moderation.md)
  blocks: () => request("GET", "/api/blocks"),
  block: (name) => request("POST", "/api/blocks", { name }),
  unblock: (name) => request("DELETE", `/api/blocks/${enc(name)}`),
  report: (body) => request("POST", "/api/reports", body),
  // moderators
  modReports: (status = "received") => request("GET", `/api/moderation/reports?status=${enc(status)}`),
  modUser: (name) => request("GET", `/api/moderation/users/${enc(name)}`),
  modAct: (name, action, body) => request("POST", `/api/moderation/users/${enc(name)}/${enc(action)}`, body),
  modRemoveChat: (gameId, lines, reason, reportId) =>
    request("POST", `/api/moderation/games/${enc(gameId)}/chat/remove`, { lines, reason, report_id: reportId ?? null }),
  modAnnul: (gameId, reason, reportId) =>
    request("POST", `/api/moderation/games/${enc(gameId)}/annul`, { reason, report_id: reportId ?? null }),
  modClose: (reportId, resolution) => request("POST", `/api/moderation/reports/${enc(reportId)}/close`, { resolution }),
  modAudit: () => request("GET", "/api/moderation/audit"),
};

/** Lists may come bare or wrapped ({challenges: [...]}, {games: [...]}, {items: [...]}). */
export function listOf(data, key) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data[key])) return data[key];
  if (data && Array.isArray(data.items)) return data.items;
  return [];
}
