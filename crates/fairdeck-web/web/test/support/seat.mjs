// The set-up the browser-seat tests share. It is not a test file: scripts/test-webjs runs
// only *.test.mjs. It says where the built seat module and the fairdeck binary are, and loads
// a seat from the module's bytes. scripts/test-webjs builds both first (cargo build -p
// fairdeck-cli, whose build script compiles the seat). Run alone without them, each test is
// skipped and counted as skipped.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSeat } from '../../js/hidden/seat.js';

export const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
/** The seat module as crates/fairdeck-pages/build.rs builds it (or $FAIRDECK_SEAT_WASM). */
export const WASM = process.env.FAIRDECK_SEAT_WASM
  ?? `${ROOT}target/wasm-seat/wasm32-unknown-unknown/release/fairdeck_hidden_wasm.wasm`;

function findBinary() {
  if (process.env.FAIRDECK_BIN) return process.env.FAIRDECK_BIN;
  const built = ['target/debug/fairdeck', 'target/release/fairdeck'].map((p) => ROOT + p).filter((p) => existsSync(p));
  return built.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** The fairdeck binary, if built. */
export const BIN = findBinary();
/** Why the wasm tests cannot run here, or false. */
export const skipWasm = existsSync(WASM) ? false : `no seat module at ${WASM} (run ./scripts/test-webjs)`;
/** Why the tests with the CLI cannot run here, or false. */
export const skipCli = skipWasm || (BIN ? false : 'no fairdeck binary (cargo build, or set FAIRDECK_BIN)');

let bytes = null;
/** A new seat: its own module instance (one browser), keyed with `seed` or fresh randomness. */
export async function newSeat(seed = null) {
  bytes ??= readFileSync(WASM);
  return loadSeat({ source: bytes, seed });
}

/** The fenced block under `### title` in docs/hidden-dealing.md. */
export function specBlock(title) {
  const spec = readFileSync(`${ROOT}docs/hidden-dealing.md`, 'utf8');
  const at = spec.indexOf(`### ${title}\n`);
  if (at < 0) throw new Error(`no section "${title}" in docs/hidden-dealing.md`);
  const m = /```\n([\s\S]*?)\n```/.exec(spec.slice(at));
  return m[1];
}
