//! `fairdeck table serve` as a process that a test kills with SIGKILL and
//! starts again on the same database and address.

use std::path::{Path, PathBuf};
use std::process::Child;

use fairdeck_client::Client;

/// The service as a process on one database; started again on the address
/// it first bound, so the seats' links stay right.
pub struct Served {
    child: Child,
    /// The address it listens on, the same after every restart.
    pub addr: String,
    db: String,
    admin_file: PathBuf,
}

impl Served {
    /// Starts it on `db` (a SQLite file or a PostgreSQL string), its admin
    /// token in `dir`, on a free loopback port.
    pub fn start(db: &str, dir: &Path) -> Served {
        let admin_file = dir.join("admin");
        let (child, addr) = spawn(db, &admin_file, "127.0.0.1:0");
        let db = db.to_string();
        Served {
            child,
            addr,
            db,
            admin_file,
        }
    }

    /// The admin token.
    pub fn admin(&self) -> String {
        let text = std::fs::read_to_string(&self.admin_file).unwrap();
        text.trim().to_string()
    }

    /// A client of it (a whole transcript may be larger than 4 MiB).
    pub fn client(&self) -> Client {
        Client::new(&self.addr).with_max_answer(1 << 24)
    }

    /// SIGKILL, then a new process on the same database and address; a
    /// new client (the old one's connection died with the process).
    pub fn kill_and_restart(&mut self, client: &mut Client) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
        let (child, addr) = spawn(&self.db, &self.admin_file, &self.addr);
        assert_eq!(addr, self.addr);
        self.child = child;
        *client = self.client();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(db: &str, admin: &Path, bind: &str) -> (Child, String) {
    let args: Vec<&std::ffi::OsStr> = ["table", "serve", "--bind", bind, "--db", db]
        .into_iter()
        .map(std::ffi::OsStr::new)
        .chain(["--admin-token-file".as_ref(), admin.as_os_str()])
        .collect();
    super::spawn_server(&args, "fairdeck table serve:")
}
