// What a seat's page recorded (the room's commitment C, the seat lock L, the
// deal numbers shown) and what a verification amounts to with it: the page
// says "as committed before play" only for a C it recorded before play, and
// "valid" only when C, L, its own seed and the deals shown were all checked.

const BEFORE_PLAY = ['committing', 'revealing', 'ready'];

/** Shows the recorded C and L, and when they were recorded. */
export function showEvidence(r) {
  const c = document.getElementById('recorded-c');
  const l = document.getElementById('recorded-l');
  if (!c || !l) return;
  c.textContent = r.c ? `${r.c.value} (recorded while ${r.c.phase})` : 'not seen yet';
  l.textContent = r.lock
    ? `${r.lock.value} (recorded while ${r.lock.phase}${r.lock.mine ? ', before this seat revealed' : ''})`
    : 'not published yet (every seat must commit first)';
}

/** The deal numbers the record says were played, in order. */
function playedNumbers(t) {
  const first = BigInt(t.manifest.first);
  const played = t.played === undefined || t.played === null ? 0n : BigInt(t.played);
  const out = [];
  for (let k = 0n; k < played && k < 100000n; k++) out.push(String(first + k));
  return out;
}

/** What this page could not confirm itself, each in words. */
function gaps(r, own, view) {
  const out = [];
  if (!r.c || !BEFORE_PLAY.includes(r.c.phase)) {
    out.push(`this page first saw the room's commitment C while the table was ${r.c?.phase ?? 'closed'}, so it cannot confirm that C is the one published before play`);
  }
  if (view.phase !== 'void' && !r.lock?.mine) out.push('this page did not record the seat lock L before this seat revealed, so it cannot confirm that no seat changed its commitment after the lock');
  if (!own) out.push('this browser does not hold this seat\'s seed, so it cannot confirm the record shows the seed this seat committed to');
  if (view.phase !== 'void' && !r.deals) out.push('this page did not see the deal numbers as they were dealt');
  return out;
}

/** Differences between the record and what this page saw itself: its own seed, the deals shown. */
function ownDifferences(view, r, own) {
  const t = view.transcript;
  const out = [];
  const mine = (t.seats ?? [])[view.seat];
  if (own && mine && mine.seed !== undefined && mine.seed !== null && mine.seed !== own) {
    out.push(`own-seed: the record shows another seed for ${view.name} than the one this browser drew`);
  }
  if (view.phase !== 'void' && r.deals && playedNumbers(t).join(',') !== r.deals.map(String).join(',')) {
    out.push(`played: this seat was shown deals ${r.deals.join(', ')}, the record says ${t.played} played from ${t.manifest.first}`);
  }
  return out;
}

/**
 * The verdict this page states: { verdict, text, checked }, verdict one of valid, partial,
 * void, self-consistent-only, invalid (never a name the page has no words for).
 */
export function evidenceWords(view, r, result, own) {
  const differences = [...result.differences.map((d) => `${d.kind}: ${d.message}`), ...ownDifferences(view, r, own)];
  const checked = [...result.checked];
  if (own) checked.push('this seat\'s seed against the one this browser drew');
  if (r.deals && view.phase !== 'void') checked.push('the deal numbers this seat was shown against the record\'s deals played');
  if (differences.length || result.verdict === 'invalid') {
    return { verdict: 'invalid', text: `INVALID: ${differences.join('; ')}`, checked };
  }
  // The lock is in the page's own words (gaps): a void record of the commit phase has none.
  const unchecked = (result.unchecked ?? []).filter((u) => !/seat lock/.test(u));
  const open = [...gaps(r, own, view), ...unchecked.map((u) => `not checked: ${u}`)];
  if (result.verdict === 'void') {
    const v = view.transcript.void ?? {};
    const text = `void: nothing was dealt; the record names ${(v.seats ?? []).join(', ')} at the ${v.phase} phase, and the seats show exactly that`;
    return { verdict: 'void', text: open.length ? `${text}. ${open.join('; ')}` : text, checked };
  }
  if (result.verdict === 'self-consistent-only') {
    return { verdict: 'self-consistent-only', text: 'self-consistent only: no commitment was recorded before play', checked };
  }
  if (result.verdict === 'valid' && !open.length) {
    const text = 'valid: the deal follows from every seat\'s seed and the room\'s secret, as committed before play; no seat changed its commitment after the lock';
    return { verdict: 'valid', text, checked };
  }
  return { verdict: 'partial', text: `partial: the record agrees with everything checked, but ${open.join('; ')}`, checked };
}
