// Issue 32 item 16: the Verify page's check of a version 1 deal document (js/fairspec-deal.js)
// says exactly what `fairdeck fair verify DEAL.json` says — same verdict, same kinds — on the
// CLI's own documents, honest and edited. Runs when a built `fairdeck` binary exists
// ($FAIRDECK_BIN, or target/debug or target/release, the newer one); otherwise skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { verifyDealDocument } from '../js/fairspec-deal.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = process.env.FAIRDECK_BIN || ['target/debug/fairdeck', 'target/release/fairdeck'].map((p) => ROOT + p)
  .filter((p) => existsSync(p)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const skip = BIN ? false : 'no fairdeck binary (build it with cargo build, or set FAIRDECK_BIN)';
const SECRET = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const C = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';

/** The CLI's verdict and kinds on `text`, with the published commitment when given. */
function cli(text, published) {
  const args = ['--format', 'json', 'fair', 'verify', '-', '--server-secret', SECRET, ...(published ? ['--commitment', published] : [])];
  let out;
  try {
    out = execFileSync(BIN, args, { input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    if (typeof e.status !== 'number' || e.status !== 1) throw e;
    out = e.stdout;
  }
  const r = JSON.parse(out);
  return [r.verdict, r.differences.map((d) => d.kind)];
}

async function page(text, published) {
  const r = await verifyDealDocument(text, { published, serverSecret: SECRET });
  return [r.verdict, r.differences.map((d) => d.kind)];
}

test('the page and the CLI agree on honest and edited deal documents', { skip }, async () => {
  for (const game of ['holdem', 'bridge', 'skat', 'scopa']) {
    const honest = execFileSync(BIN, ['--format', 'json', 'fair', 'deal', '--server-secret', SECRET, '--client-seed', 'alice', '--nonce', '9007199254740993', '--game', game], { encoding: 'utf8' });
    const doc = JSON.parse(honest.replace(/("nonce": )(\d+)/, '$1"$2"'));
    const [a, b] = [doc.hands[0].cards, doc.hands[1].cards];
    const render = (edit) => {
      const x = structuredClone(doc);
      edit(x);
      return JSON.stringify(x, null, 2).replace(/("nonce": )"(\d+)"/, '$1$2');
    };
    const edits = {
      honest: honest,
      'own commitment edited': honest.replace(C, 'f'.repeat(64)),
      'hand reordered': render((x) => x.hands[0].cards.reverse()),
      'card moved between hands': render((x) => { [x.hands[0].cards[0], x.hands[1].cards[0]] = [b[0], a[0]]; }),
      'duplicate key': honest.replace('"game":', '"game": "bridge", "game":'),
      'loose card spelling': honest.replace(`"${a[0]}"`, `" ${a[0]}"`),
      'unknown field': honest.replace('"stock":', '"server_secret": "00", "stock":'),
      'nonce rounded': honest.replace('9007199254740993', '9007199254740992'),
    };
    for (const [what, text] of Object.entries(edits)) {
      assert.ok(what === 'honest' || text !== honest, `${game}: the edit "${what}" changed nothing`);
      for (const published of [C, undefined]) {
        const [want, got] = [cli(text, published), await page(text, published)];
        assert.deepEqual(got, want, `${game}, ${what}, ${published ? 'with' : 'without'} the commitment`);
      }
    }
    assert.deepEqual(await page(honest, C), ['valid', []]);
    assert.deepEqual(await page(edits['own commitment edited'], C), ['invalid', ['commitment']]);
    assert.deepEqual(await page(edits['hand reordered'], C), ['valid', []]);
    assert.deepEqual((await page(edits['card moved between hands'], C))[1].slice(0, 2), ['hand', 'hand']);
    assert.deepEqual(await page(edits['duplicate key'], C), ['invalid', ['document']]);
  }
});
