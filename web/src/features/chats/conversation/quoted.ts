/** An attribution line that opens a quoted history: "On … wrote:", "… написал(а):", Outlook's original-message rule. */
const ATTRIBUTION =
  /^(on .+ wrote:|.+ (wrote|написал|написала|написал\(а\)|пишет):|-{2,}\s*(original message|исходное сообщение|пересылаемое сообщение)\s*-{2,}|from: .+|от: .+)\s*$/i;

/**
 * A client's mail split into what they wrote and the quoted history under it (the trailing block of `>` lines,
 * with the attribution line above it): the history is folded in the conversation. No history: `quoted` is ''.
 */
export function splitQuoted(text: string): { body: string; quoted: string } {
  const lines = text.split('\n');
  let start = lines.length;
  // The trailing run of quoted (or blank) lines.
  while (start > 0 && /^\s*(>|$)/.test(lines[start - 1])) start--;
  while (start < lines.length && !lines[start].trim()) start++;
  if (start >= lines.length || !lines.slice(start).some((l) => l.trimStart().startsWith('>'))) {
    // Outlook style: the original message under a rule, not quoted with '>'.
    const rule = lines.findIndex(
      (l, i) => i > 0 && /^-{2,}\s*(original message|исходное сообщение)\s*-{2,}\s*$/i.test(l.trim()),
    );
    if (rule < 0) return { body: text, quoted: '' };
    start = rule;
  } else {
    let above = start - 1;
    while (above > 0 && !lines[above].trim()) above--;
    if (above >= 0 && ATTRIBUTION.test(lines[above].trim())) start = above;
  }
  const body = lines.slice(0, start).join('\n').trimEnd();
  if (!body.trim()) return { body: text, quoted: '' };
  return { body, quoted: lines.slice(start).join('\n').trim() };
}
