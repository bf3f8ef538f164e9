// A browser seat of fair dealing version 3 (docs/hidden-dealing.md §16): the Rust crate
// fairdeck-hidden compiled to WebAssembly (crates/fairdeck-hidden-wasm), so the page runs the
// same protocol code as `fairdeck hidden` and `fair verify`. The seat's secret keys are made
// and kept inside the module's memory; this file only ever holds a handle to them.
//
// The module's randomness: 32 bytes of crypto.getRandomValues key a ChaCha20 generator inside
// it when it is loaded. Every operation takes and answers JSON; an error is thrown as an
// Error with one line of text.
//
//   const seat = await loadSeat();                      // fetches ./seat.wasm beside this file
//   const key = await seat.keyNew();
//   let { message, transcript } = await seat.keyMessage(key, transcriptText, 0);
//   ({ message, transcript } = await seat.shuffle(key, transcript));
//   const verdict = await seat.verify(transcript);      // { valid, summary, verdict }

const MISSING = 'this fairdeck was built without the browser seat (seat.wasm): install the '
  + 'WebAssembly target with `rustup target add wasm32-unknown-unknown` and build fairdeck again';

/** The bytes of the module: a URL (fetched), a Response, bytes, or a compiled Module. */
async function moduleOf(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const response = source instanceof Response ? source : await fetch(source);
  if (response.status === 404) throw new Error(MISSING);
  if (!response.ok) throw new Error(`cannot load the browser seat: HTTP ${response.status} for ${response.url}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads a seat. `source` is where the module comes from (default: seat.wasm beside this file);
 * `seed` (32 bytes) replaces crypto.getRandomValues — for reproducible tests only: anyone who
 * knows it knows the seat's keys.
 */
export async function loadSeat({ source = new URL('./seat.wasm', import.meta.url), seed = null } = {}) {
  const instance = await WebAssembly.instantiate(await moduleOf(source), {});
  const seat = new Seat(instance.exports);
  seat.seed(seed ?? crypto.getRandomValues(new Uint8Array(32)));
  return seat;
}

/** One loaded module: its memory holds the seat's generator and keys. */
export class Seat {
  #abi;
  #stopped = null;

  constructor(abi) {
    this.#abi = abi;
  }

  /** Re-keys the generator with 32 bytes (the loader does it once with fresh randomness). */
  seed(bytes) {
    if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new Error('seed: expected 32 bytes');
    this.#guard(() => {
      const ptr = this.#abi.fd_alloc(32);
      new Uint8Array(this.#abi.memory.buffer, ptr, 32).set(bytes);
      this.#abi.fd_seed(ptr);
      this.#abi.fd_free(ptr, 32);
    });
  }

  /** Runs one request `{op, …}` in the module; answers its `ok` value or throws its error. */
  call(request) {
    const answer = this.#guard(() => this.#raw(new TextEncoder().encode(JSON.stringify(request))));
    if ('error' in answer) throw new Error(answer.error);
    return answer.ok;
  }

  /** Sends request bytes, reads and frees the answer (length-prefixed JSON). */
  #raw(bytes) {
    const abi = this.#abi;
    const ptr = abi.fd_alloc(bytes.length);
    new Uint8Array(abi.memory.buffer, ptr, bytes.length).set(bytes);
    let out;
    try {
      out = abi.fd_call(ptr, bytes.length);
    } finally {
      abi.fd_free(ptr, bytes.length);
    }
    const len = new DataView(abi.memory.buffer).getUint32(out, true);
    const text = new TextDecoder().decode(new Uint8Array(abi.memory.buffer, out + 4, len));
    abi.fd_free(out, len + 4);
    return JSON.parse(text);
  }

  /** A trap (out of memory) leaves the module unusable: say so once and refuse further calls. */
  #guard(run) {
    if (this.#stopped) throw new Error(this.#stopped);
    try {
      return run();
    } catch (e) {
      if (!(e instanceof WebAssembly.RuntimeError)) throw e;
      this.#stopped = `the browser seat stopped (${e.message}); reload the page — keys not exported are lost`;
      throw new Error(this.#stopped);
    }
  }

  /** A new secret key inside the seat; answers its handle. */
  async keyNew() {
    return this.call({ op: 'key_new' }).key;
  }

  /** Publishes key `key` as seat `seat`: answers `{message, transcript}` (the key message added). */
  async keyMessage(key, transcript, seat) {
    return this.call({ op: 'key_message', key, seat, transcript: text(transcript) });
  }

  /** The seat's own key file ({table, seat, secret_key}, as `fairdeck hidden key` writes it). */
  async keyExport(key) {
    return this.call({ op: 'key_export', key });
  }

  /** Reads a key file (text or object); answers the key's handle. */
  async keyImport(file) {
    return this.call({ op: 'key_import', file: text(file) }).key;
  }

  /** Wipes a key from the seat. */
  async keyForget(key) {
    this.call({ op: 'key_forget', key });
  }

  /** Verifies the transcript, then shuffles with a proof: answers `{message, transcript}`. */
  async shuffle(key, transcript, { hand } = {}) {
    return this.call({ op: 'shuffle', key, transcript: text(transcript), hand });
  }

  /** The decryption shares (with proofs) this seat owes for `street` (`deal`, `flop`, …): `{messages, transcript}`. */
  async share(key, transcript, street, { hand } = {}) {
    return this.call({ op: 'share', key, transcript: text(transcript), street, hand });
  }

  /** Showdown: this seat's shares of its own private cards: `{messages, transcript}`. */
  async open(key, transcript, { hand } = {}) {
    return this.call({ op: 'open', key, transcript: text(transcript), hand });
  }

  /** The seat's view of a hand: its own cards (its share removed inside the seat), the board, opened cards. */
  async cards(key, transcript, { hand } = {}) {
    return this.call({ op: 'cards', key, transcript: text(transcript), hand });
  }

  /** Version 3.1: keeps the room's receipt for a message this seat sent (checked at every later step). */
  async receipt(key, receipt) {
    this.call({ op: 'receipt', key, receipt });
  }

  /** Version 3.1: the receipts and signed heads this seat kept, for `fair verify --evidence`. */
  async evidence(key) {
    return this.call({ op: 'evidence', key });
  }

  /** Version 3.1: the seat's signed attestation of a finished table's whole transcript (verified first). */
  async attest(key, transcript) {
    return this.call({ op: 'attest', key, transcript: text(transcript) });
  }

  /** `fair verify` of a transcript: `{valid, summary, verdict}`; `inProgress` allows an unfinished hand. */
  async verify(transcript, { inProgress = false } = {}) {
    return this.call({ op: 'verify', transcript: text(transcript), in_progress: inProgress });
  }
}

/** A transcript or key file as the text the module reads strictly. */
function text(doc) {
  return typeof doc === 'string' ? doc : JSON.stringify(doc);
}
