// Dates and times as the pages show them (docs/page.md, "Keyboards,
// languages and names"). The pages are written in English, so a date is
// too: in the browser's own language it came out in another script
// within an English line ("٢٨‏/١١‏/٢٠٢٦، ٧:٠٣ م" under ar-EG), its
// right-to-left words and marks reordering the line around it. The month
// is a word, so no reader takes the day for the month; the clock is the
// reader's own, 24 hours or AM and PM, as their language writes it.

let format = null;

// dateTime is the moment ms (milliseconds since 1970, or an ISO string)
// written for the pages: "Nov 28, 2026, 19:03" or "Nov 28, 2026, 7:03 PM";
// "" for no valid time.
export function dateTime(ms) {
  const d = new Date(ms);
  if (isNaN(d)) return "";
  if (!format) {
    const lang = document.documentElement.lang || "en";
    let hourCycle;
    try { hourCycle = new Intl.DateTimeFormat(undefined, { hour: "numeric" }).resolvedOptions().hourCycle; } catch { hourCycle = undefined; }
    format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", hourCycle, numberingSystem: "latn" });
  }
  return format.format(d);
}
