// What the pages of hidden (version-3) tables say about a transcript: fetching it, a void
// record in words (the stage, the seat that stalled, what it owed — as `fairdeck hidden seat`
// words it), and the verdict of the seat module's `verify`. The seat page (hidden.js) and the
// operator's page (hidden-operate.js) share them.

/** A hidden table's transcript as text (with `hand`: the keys and that hand only). */
export async function transcriptText(base, hand = null) {
  const res = await fetch(`${base}/transcript${hand == null ? '' : `?hand=${hand}`}`);
  if (!res.ok) {
    const e = new Error((await res.json().catch(() => ({}))).error ?? `transcript: HTTP ${res.status}`);
    e.status = res.status;
    throw e;
  }
  return res.text();
}

/** One missing message in words: its key, its shuffle, its share of position N. */
export function missingWords(m) {
  if (m.message === 'share') return `its share of position ${m.position}`;
  return `its ${m.message}`;
}

/** The void record of a parsed transcript (§14): the table's, else its last hand's, or null. */
export const stallOf = (transcript) => transcript.void ?? transcript.hands.at(-1)?.void ?? null;

/** A void record in words; `you` names the seat that reads it (or null). */
export function voidWords(stall, names, you = null) {
  const mark = stall.seat === you ? ', you' : '';
  const who = `seat ${stall.seat} (${names[stall.seat]}${mark})`;
  const what = stall.stage === 'keys' ? 'The table is void' : 'The hand is void';
  return `${what}: at the ${stall.stage} stage, ${who} did not send ${stall.missing.map(missingWords).join(', ')} `
    + 'before the deadline. No card of the hand is shown that was not shown already; the room counts the void '
    + 'against that seat.';
}

/**
 * Verifies the transcript `text` with the seat module and shows the verdict in `section`
 * (its `data-verdict` and `data-summary`) and its `line`.
 */
export async function showVerdict(module, text, section, line) {
  const r = await module.verify(text);
  section.dataset.verdict = r.valid ? 'valid' : 'invalid';
  section.dataset.summary = r.summary;
  line.textContent = r.valid
    ? `The whole transcript verifies (checked in this browser by the code of fairdeck fair verify): ${r.summary}`
    : `The transcript does NOT verify: ${r.summary}`;
  showFingerprints(r.verdict, section.querySelector('.fingerprints'));
  return r;
}

/**
 * Version 3.1: each seat's key fingerprint (spec §17), for the players to compare outside the
 * room: a player whose own seat shows another fingerprint than this list was played by someone
 * else. `where` is an element with `data-seat` (the reader's seat, if any).
 */
function showFingerprints(verdict, where) {
  if (!where || !verdict.signed || !verdict.key_fingerprints?.length) return;
  const mine = where.dataset.seat === undefined ? null : Number(where.dataset.seat);
  const list = verdict.key_fingerprints.map((f, j) => `seat ${j}${j === mine ? ' (you)' : ''} ${f}`);
  where.textContent = `Key fingerprints: ${list.join(', ')}. Compare yours with your fellow players, outside `
    + 'this room: a seat whose player sees another fingerprint was played by someone else.';
  where.hidden = false;
}
