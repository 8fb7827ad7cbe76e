// Shared by the lobby and the table page: the API and the display name.

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let res;
  try { res = await fetch(path, init); } catch { throw new ApiError(0, "The server cannot be reached."); }
  const text = await res.text();
  let j = {};
  try { j = text ? JSON.parse(text) : {}; } catch { /* not JSON */ }
  if (!res.ok) throw new ApiError(res.status, j.error || res.statusText);
  return j;
}

const NAME_KEY = "arlington.name";
export function savedName() { return localStorage.getItem(NAME_KEY) || ""; }
export function saveName(n) { localStorage.setItem(NAME_KEY, n); }

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
