// The API key the server asks for when svc:auth is on. It lives only in this tab's
// sessionStorage (a reload keeps it, closing the tab ends it; never localStorage, never a cookie)
// and goes, as `Authorization: Bearer …`, only to requests for this page's own origin.
const STORAGE_KEY = "svc-chat:api-key";

function stored() {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? "";
  } catch {
    return ""; // storage disabled: the key lives in this page only
  }
}

let current = stored();

/** The key in use ("" when none was given). */
export function currentKey() {
  return current;
}

export function rememberKey(key) {
  current = key;
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // storage unavailable: kept in memory for this page
  }
}

/** Drops `key` if it is still the one in use (a request that raced a newer key leaves that alone). */
export function forgetKey(key = current) {
  if (key !== current) return;
  current = "";
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/** `headers` plus the key, for a request to `url` on this page's own origin only. */
export function withKey(url, headers = {}) {
  if (!current || new URL(url, location.href).origin !== location.origin) return headers;
  return { ...headers, authorization: `Bearer ${current}` };
}
