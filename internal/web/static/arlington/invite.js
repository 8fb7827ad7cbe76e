// Inviting a friend: the table's link, with a button that copies it, and
// its short code to type in the lobby (the server's, from the table's
// summary).
const $ = (id) => document.getElementById(id);

// inviteBox is who last decided whether the invitation box is open:
// "none" (nobody yet), "page" (the page opened it while seats waited),
// "player" (the player opened or closed it since: it stays as they left
// it), "done" (the page closed it when the game started).
let inviteBox = "none";

export function installInvite(id) {
  // The player opens or closes the box with its summary (a click, or
  // Enter or Space there, which click it). Not "toggle": it follows the
  // page's own changes too, and two quick ones arrive as one.
  $("invite-box").querySelector("summary").addEventListener("click", () => { inviteBox = "player"; });
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

// followInvite opens or closes the invitation box with the table: open
// once while seats wait for players (the status line asks to share the
// link or the code, which sat in a closed box); opened so, closed once
// when the game starts (nobody is left to invite, and it pushed the game
// down the side column). A box the player opened or closed themselves
// stays as they left it.
export function followInvite(started, waiting) {
  const box = $("invite-box");
  if (!started && waiting && inviteBox === "none") { inviteBox = "page"; box.open = true; }
  if (started && inviteBox === "page") { inviteBox = "done"; box.open = false; }
}
