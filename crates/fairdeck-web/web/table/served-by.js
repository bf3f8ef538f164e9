// Who served the seat page (/table/hidden.html): the table service serves this file as is,
// so its pages say that playing there trusts the room's code. `fairdeck hidden seat --page`
// serves the page from the player's own binary and answers this path with 'player' instead
// (crates/fairdeck-cli/src/cmd/hidden/page.rs). The word changes only what the page says:
// what a player trusts is the address in the address bar (their own computer, 127.0.0.1).
export const servedBy = 'room';
