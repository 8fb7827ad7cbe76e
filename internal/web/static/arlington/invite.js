// Inviting a friend: the table's link, with a button that copies it, and
// its short code to type in the lobby (the server's, from the table's
// summary).
const $ = (id) => document.getElementById(id);

export function installInvite(id) {
  $("invite-link").value = `${location.origin}/arlington/t/${encodeURIComponent(id)}`;
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      $("copy-msg").textContent = "Link copied.";
    } catch {
      $("invite-link").select(); // the clipboard refused: the player copies it
      $("copy-msg").textContent = "Select the link and copy it.";
    }
  });
}

export function showCode(code) { $("invite-code").textContent = code || ""; }
