// A hidden seat's secret key in this browser (/table/hidden.html). The key lives inside the
// seat module; the one form in which it leaves it is the seat's key file, the format of
// `fairdeck hidden key` ({"table", "seat", "secret_key"}). The page keeps that file in this
// browser's storage under the table and seat, offers it as a download, and reads back a key
// file the player imports (to carry a seat over to another browser) after checking that it is
// this table's and this seat's, and that it holds the very key the seat published.

/** The kept key file of one seat, and the link's token for it. */
export class KeyStore {
  constructor(table, seat) {
    this.table = table;
    this.seat = seat;
    this.keyItem = `fairdeck-hidden-key/${table}/${seat}`;
    this.tokenItem = `fairdeck-hidden-token/${table}/${seat}`;
    this.receiptsItem = `fairdeck-hidden-receipts/${table}/${seat}`;
  }

  /** Version 3.1: the room's receipts kept for this seat (they outlive a reload), oldest first. */
  receipts() {
    try {
      const list = JSON.parse(localStorage.getItem(this.receiptsItem) ?? '[]');
      return Array.isArray(list) ? list : [];
    } catch {
      return [];
    }
  }

  keepReceipts(more) {
    if (more.length) localStorage.setItem(this.receiptsItem, JSON.stringify([...this.receipts(), ...more]));
  }

  /** The kept key file (text), or null. */
  file() {
    return localStorage.getItem(this.keyItem);
  }

  keep(file) {
    localStorage.setItem(this.keyItem, file);
  }

  token() {
    return localStorage.getItem(this.tokenItem);
  }

  keepToken(token) {
    localStorage.setItem(this.tokenItem, token);
  }

  /** Shows that the key file is kept and offers it as a download. */
  show(file) {
    const a = document.getElementById('download-key');
    a.href = URL.createObjectURL(new Blob([`${file}\n`], { type: 'application/json' }));
    a.download = `${this.table}-seat${this.seat}.key`;
    a.hidden = false;
    document.getElementById('key-state').textContent = 'your key file is kept in this browser for this table and seat';
    document.getElementById('key-missing').hidden = true;
    delete document.body.dataset.key;
  }

  /** Says that this browser has no key for a seat whose key the table holds. */
  showMissing() {
    document.body.dataset.key = 'missing';
    document.getElementById('key-missing').hidden = false;
    document.getElementById('key-state').textContent = 'this seat\'s key is not in this browser';
  }
}

/** The table and seat a key file names; a one-line error if it is none or another seat's. */
export function fileSeat(text, table, seat) {
  let file;
  try {
    file = JSON.parse(text);
  } catch {
    file = null;
  }
  const fields = file && typeof file === 'object' ? Object.keys(file).sort().join(',') : '';
  if (fields !== 'seat,secret_key,table' || typeof file.table !== 'string' || !Number.isInteger(file.seat)) {
    throw new Error('this is not a key file of a hidden seat (it should hold "table", "seat" and "secret_key")');
  }
  if (file.table !== table || file.seat !== seat) {
    throw new Error(`this key file is seat ${file.seat}'s at table ${file.table}, not seat ${seat}'s at table ${table}: import this seat's own key file`);
  }
  return file;
}

/**
 * Reads an imported key file into the module; answers its handle. Refused (one line, nothing
 * kept) unless it names this table and seat and is the key the seat published in `transcript`.
 */
export async function importKey(module, text, transcript, { table, seat }) {
  fileSeat(text, table, seat);
  if (!JSON.parse(transcript).keys.some((k) => k.seat === seat)) {
    throw new Error(`seat ${seat} has not sent its key to the table yet: this page makes the seat's key itself`);
  }
  const key = await module.keyImport(text);
  try {
    // Reading the seat's view checks the key against the one it published first.
    await module.cards(key, transcript);
  } catch (e) {
    if (/^wrong-key/.test(e.message)) {
      await module.keyForget(key);
      throw new Error(`this key file is not the key seat ${seat} published at table ${table}: import the file this seat downloaded`);
    }
    // Anything else (no hand dealt yet) is about the transcript, not the key.
  }
  return key;
}
