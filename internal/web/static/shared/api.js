// The server's JSON API (docs/api.md). Every function returns the decoded
// answer or throws an ApiError carrying the server's message.

export class ApiError extends Error {
  constructor(status, message, body = null, retryAfter = 0) {
    super(message);
    this.status = status;
    this.body = body; // the decoded error answer, when it is JSON
    this.retryAfter = retryAfter; // the answer's Retry-After, in seconds (0: none)
  }
}

// versions holds, per game id, the version of the game the latest answer
// about it came with: a Spider command names it, and the server refuses
// (409, with the game as it stands) a command behind the stored game, sent
// by a tab that has not seen another tab's move.
const versions = new Map();

// clocks holds, per game id, the play time of the latest answer about it
// ({played, since, cap, running} in ms, docs/api.md "Play time") and when
// it came (at, performance.now()).
const clocks = new Map();

function noteVersion(r) {
  if (r && typeof r.id === "string" && Number.isInteger(r.version)) versions.set(r.id, r.version);
  if (r && typeof r.id === "string" && r.clock) clocks.set(r.id, { ...r.clock, at: performance.now() });
  return r;
}

// noteGame notes the version and clock of an analysis answer's game.
function noteGame(r) {
  if (r) noteVersion(r.game);
  return r;
}

// playTime is game id's play time now, in ms, as the server would count it
// for a command made now (null when no answer about it came yet), and
// whether its clock is running.
export function playTime(id) {
  const c = clocks.get(id);
  if (!c) return null;
  const idle = c.running ? Math.min(c.since + (performance.now() - c.at), c.cap) : 0;
  return { ms: c.played + idle, running: c.running && c.since + (performance.now() - c.at) < c.cap };
}

export async function request(method, path, body, { text = false, raw = false, noStore = false, keepalive = false, signal } = {}) {
  const init = { method, headers: {} };
  // keepalive lets the request outlive the page (closed, or left), where
  // the browser would cancel it; signal lets the caller abort it.
  if (keepalive) init.keepalive = true;
  if (signal) init.signal = signal;
  // noStore keeps the browser's HTTP cache out of the request: a read it
  // could cache holds a lock there that made another tab's write to the
  // same address wait until the read was answered, or 20 s.
  if (noStore) init.cache = "no-store";
  if (body !== undefined) {
    if (raw) {
      init.body = body;
      init.headers["Content-Type"] = "text/plain; charset=utf-8";
    } else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  let res;
  for (let tries = 1; ; tries++) {
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, "The server cannot be reached. Is cardtable still running?");
    }
    if (!movingTable(path, res) || tries >= tableRetries) break;
    // The table is between servers (its server stopped or died, another
    // takes it within seconds): nothing was done, so ask again as
    // Retry-After says, rather than show the player an error.
    const secs = Math.min(Number(res.headers.get("Retry-After")) || 1, 2);
    await new Promise((ok) => setTimeout(ok, secs * 1000));
  }
  if (!res.ok) {
    let msg = res.statusText || `error ${res.status}`;
    let body = null;
    try {
      body = parseJSON(await res.text());
      if (body && body.error) msg = body.error;
      noteVersion(body);
    } catch { /* not JSON: keep the status text */ }
    throw new ApiError(res.status, msg, body, Number(res.headers.get("Retry-After")) || 0);
  }
  if (text) return res.text();
  if (res.status === 204) return {};
  const ct = res.headers.get("Content-Type") || "";
  if (!ct.includes("json")) return {};
  return noteVersion(parseJSON(await res.text()));
}

// tableRetries bounds the askings of a request for a table between
// servers: about 8 s at one a second, past a take-over's usual time.
const tableRetries = 8;

// movingTable: res says an Arlington table is between servers (503
// marked so by the server, arlwire.MovingHeader, with Retry-After), so
// the request was not carried out and may be made again; a 503 not
// marked (a database too busy or out of reach) is shown.
function movingTable(path, res) {
  return res.status === 503 && res.headers.get("X-Cardtable-Moving") === "1" && path.startsWith("/api/arlington/tables/");
}

// parseJSON keeps deal numbers exact: they go up to 2^64-1, beyond the
// integers a JavaScript number holds, so long ones are read as strings.
export function parseJSON(text) {
  return JSON.parse(text.replace(/"deal":\s*(\d{16,})/g, '"deal":"$1"'));
}

const enc = encodeURIComponent;
const prev = (id) => (id ? `?previous=${enc(id)}` : "");

export const api = {
  // previous names the game the player leaves: the server counts it as lost
  // if it was played since it was started or loaded and was not won.
  newGame: (opts, previous) => request("POST", `/api/games${prev(previous)}`, opts),
  game: (id) => request("GET", `/api/games/${enc(id)}`),
  command: (id, cmd) => request("POST", `/api/games/${enc(id)}/commands`, { cmd, version: versions.get(id) }),
  hint: (id) => request("GET", `/api/games/${enc(id)}/hint`),
  locate: (id, card) => request("GET", `/api/games/${enc(id)}/locate?card=${enc(card)}`),
  column: (id, pile) => request("GET", `/api/games/${enc(id)}/column/${pile}`),
  // giveUp ends a game still in play (it counts as lost) for its analysis.
  // Giving up changes the game's version, which the answer's game carries.
  analysis: (id, giveUp) => request("POST", `/api/games/${enc(id)}/analysis`, { giveUp }).then(noteGame),
  // analyseSave opens a named save as a new game, given up, and analyses it.
  analyseSave: (name, giveUp, previous) =>
    request("POST", `/api/saves/${enc(name)}/analysis${prev(previous)}`, { giveUp }).then(noteGame),
  saveURL: (id) => `/api/games/${enc(id)}/save`,
  saveText: (id) => request("GET", `/api/games/${enc(id)}/save`, undefined, { text: true }),
  load: (text, previous) => request("POST", `/api/games/load${prev(previous)}`, text, { raw: true }),
  // saves lists the player's saves; with game, each save of that game
  // (its lineage) is marked sameGame.
  saves: (game) => request("GET", game ? `/api/saves?game=${enc(game)}` : "/api/saves"),
  putSave: (name, id) => request("PUT", `/api/saves/${enc(name)}`, { game: id }),
  openSave: (name, previous) => request("POST", `/api/saves/${enc(name)}/open${prev(previous)}`),
  deleteSave: (name) => request("DELETE", `/api/saves/${enc(name)}`),
  stats: () => request("GET", "/api/stats"),
  settings: () => request("GET", "/api/settings", undefined, { noStore: true }),
  // putSettings' write is aborted by signal; with keepalive it outlives
  // the page (closed or left), and the browser no longer aborts it.
  putSettings: (s, { signal, keepalive = false } = {}) => request("PUT", "/api/settings", s, { signal, keepalive }),
};
