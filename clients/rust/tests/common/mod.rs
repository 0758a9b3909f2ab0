//! A throwaway PostgreSQL server for the tests, and psql to talk to it.
//!
//! By default the tests start a cluster of their own: initdb in a
//! temporary directory, listening on a Unix socket in that directory only
//! (no TCP), from BLOOMFILTER_PG_BINDIR, else `pg_config --bindir`, as the
//! postgres user when run as root; stopped and removed at the end (also when
//! a test panics). Every PG* variable (PGHOST, PGPORT, PGHOSTADDR,
//! PGSERVICE, ...) is removed from the server programs' and psql's
//! environment, so nothing reaches another server.
//!
//! BLOOMFILTER_TEST_DSN (a libpq connection string) opts in to a server of
//! one's own: the tests then create a database of their own there
//! (pgbloomfilter_test_ and a random suffix) and drop only that one. The
//! extension must be installed in the server; it is never installed here.

#![allow(dead_code)]

use std::env;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use pgbloomfilter::Key;

pub struct Server {
    bindir: PathBuf,
    tmp: PathBuf,
    own: bool,
    as_postgres: bool,
    /// connection string of the tests' database
    dsn: String,
    /// connection string for creating and dropping it
    admin_dsn: String,
    db: String,
}

fn bindir() -> PathBuf {
    if let Ok(d) = env::var("BLOOMFILTER_PG_BINDIR") {
        if !d.is_empty() {
            return PathBuf::from(d);
        }
    }
    let pg_config = env::var("PG_CONFIG").unwrap_or_else(|_| "pg_config".into());
    match Command::new(pg_config).arg("--bindir").output() {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => PathBuf::from("/usr/lib/postgresql/15/bin"),
    }
}

fn random_suffix() -> String {
    let t = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    let x = (t as u64) ^ ((std::process::id() as u64) << 32);
    format!("{:012x}", pgbloomfilter::fmix64(x) & 0xFFFF_FFFF_FFFF)
}

/// A command with no libpq variable in its environment (own cluster only).
fn clean(cmd: &mut Command) {
    for (k, _) in env::vars_os() {
        if let Some(k) = k.to_str() {
            if k.starts_with("PG") && k != "PG_CONFIG" {
                cmd.env_remove(k);
            }
        }
    }
}

impl Server {
    pub fn start() -> Server {
        let bindir = bindir();
        let db = format!("pgbloomfilter_test_{}", random_suffix());
        if let Ok(dsn) = env::var("BLOOMFILTER_TEST_DSN") {
            if !dsn.is_empty() {
                let s = Server {
                    bindir,
                    tmp: PathBuf::new(),
                    own: false,
                    as_postgres: false,
                    dsn: format!("{} dbname={}", dsn, db),
                    admin_dsn: dsn,
                    db,
                };
                s.create_db();
                return s;
            }
        }
        let tmp = env::temp_dir().join(format!("pgbloomfilter-rust-{}", random_suffix()));
        fs::create_dir_all(&tmp).unwrap();
        let as_postgres = unsafe { libc_geteuid() } == 0;
        if as_postgres {
            let st = Command::new("chown").arg("postgres:postgres").arg(&tmp).status().unwrap();
            assert!(st.success(), "chown of the test directory");
        }
        let host = tmp.to_str().unwrap().to_string();
        let s = Server {
            bindir,
            own: true,
            as_postgres,
            dsn: format!("host={} port=5432 user=postgres dbname={}", host, db),
            admin_dsn: format!("host={} port=5432 user=postgres dbname=postgres", host),
            tmp,
            db,
        };
        let data = s.tmp.join("data");
        s.run_tool("initdb", &["-D", data.to_str().unwrap(), "-E", "UTF8", "--locale=C", "-A", "trust", "-U", "postgres"]);
        let opts = format!("-k {} -p 5432 -c listen_addresses=''", host);
        let log = s.tmp.join("log");
        s.run_tool(
            "pg_ctl",
            &["-D", data.to_str().unwrap(), "-o", &opts, "-l", log.to_str().unwrap(), "-w", "start"],
        );
        s.create_db();
        s
    }

    fn run_tool(&self, tool: &str, args: &[&str]) {
        let prog = self.bindir.join(tool);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&prog);
            c
        } else {
            Command::new(&prog)
        };
        cmd.args(args);
        clean(&mut cmd);
        let out = cmd.output().unwrap_or_else(|e| panic!("{}: {}", prog.display(), e));
        assert!(out.status.success(), "{} failed: {}", tool, String::from_utf8_lossy(&out.stderr));
    }

    fn create_db(&self) {
        self.psql_dsn(
            &self.admin_dsn,
            &format!("CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'", self.db),
        )
        .unwrap();
        self.psql("CREATE EXTENSION bloomfilter").unwrap();
    }

    fn psql_dsn(&self, dsn: &str, sql: &str) -> Result<String, String> {
        let mut cmd = Command::new(self.bindir.join("psql"));
        cmd.args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", "-d", dsn]);
        if self.own {
            clean(&mut cmd);
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("psql");
        child.stdin.take().unwrap().write_all(sql.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            Ok(String::from_utf8(out.stdout).unwrap().trim_end_matches('\n').to_string())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// The output of psql -At running `sql` in the tests' database; Err(stderr) on an error.
    pub fn psql(&self, sql: &str) -> Result<String, String> {
        self.psql_dsn(&self.dsn, sql)
    }

    /// A database of this encoding beside the tests' own, named after it
    /// (dropped with it); its connection string, in UTF-8 for the client.
    pub fn encoding_db(&self, enc: &str) -> String {
        let name = format!("{}_{}", self.db, enc.to_lowercase());
        self.psql_dsn(
            &self.admin_dsn,
            &format!("CREATE DATABASE {} TEMPLATE template0 ENCODING '{}' LC_COLLATE 'C' LC_CTYPE 'C'", name, enc),
        )
        .unwrap();
        let dsn = format!("{} client_encoding=UTF8", self.dsn.replace(&format!("dbname={}", self.db), &format!("dbname={}", name)));
        self.psql_dsn(&dsn, "CREATE EXTENSION bloomfilter").unwrap();
        dsn
    }

    pub fn query_in(&self, dsn: &str, sql: &str) -> String {
        self.psql_dsn(dsn, sql).unwrap_or_else(|e| panic!("{}\n{}", sql, e))
    }

    pub fn query(&self, sql: &str) -> String {
        self.psql(sql).unwrap_or_else(|e| panic!("{}\n{}", sql, e))
    }

    /// A scratch file for \copy.
    pub fn scratch(&self, name: &str) -> PathBuf {
        let dir = if self.own { self.tmp.clone() } else { env::temp_dir() };
        dir.join(format!("{}-{}", self.db, name))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.psql_dsn(&self.admin_dsn, &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.db));
        for enc in ["utf8", "latin1", "sql_ascii", "euc_jp"] {
            let _ = self.psql_dsn(&self.admin_dsn, &format!("DROP DATABASE IF EXISTS {}_{} WITH (FORCE)", self.db, enc));
        }
        if self.own {
            let data = self.tmp.join("data");
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.run_tool("pg_ctl", &["-D", data.to_str().unwrap(), "-m", "fast", "-w", "stop"])
            }));
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}

pub fn hex_decode(s: &str) -> Vec<u8> {
    let s = s.trim();
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
}

pub fn hex_encode(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        s.push_str(&format!("{:02x}", x));
    }
    s
}

/// Writes lines to a file for \copy.
pub fn write_lines(path: &Path, lines: impl Iterator<Item = String>) {
    let mut f = std::io::BufWriter::new(fs::File::create(path).unwrap());
    for l in lines {
        f.write_all(l.as_bytes()).unwrap();
        f.write_all(b"\n").unwrap();
    }
}

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        pgbloomfilter::fmix64(self.0)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// An owned key, and how COPY spells it.
#[derive(Clone, Debug)]
pub enum Val {
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
    Uuid([u8; 16]),
    Float(f64),
    Numeric(String),
    Bool(bool),
    Date(i32),
    Ts(i64),
    Tstz(i64),
    Row(Vec<Val>),
}

impl Val {
    /// The key of a scalar (a row's key borrows its columns' keys: with_key).
    pub fn key(&self) -> Key<'_> {
        match self {
            Val::Int(v) => Key::Int(*v),
            Val::Text(s) => Key::Text(s),
            Val::Bytes(b) => Key::Bytes(b),
            Val::Uuid(u) => Key::Uuid(*u),
            Val::Float(d) => Key::Float(*d),
            Val::Numeric(s) => Key::Numeric(s),
            Val::Bool(b) => Key::Bool(*b),
            Val::Date(d) => Key::Date(*d),
            Val::Ts(t) => Key::Timestamp(*t),
            Val::Tstz(t) => Key::TimestampTz(*t),
            Val::Row(_) => panic!("a row's key: with_key"),
        }
    }

    pub fn with_key<R>(&self, f: &mut dyn FnMut(Key) -> R) -> R {
        match self {
            Val::Row(cols) => {
                // columns are scalars here: their keys borrow from cols
                let ks: Vec<Key> = cols.iter().map(|c| c.key()).collect();
                f(Key::Row(&ks))
            }
            scalar => f(scalar.key()),
        }
    }

    /// COPY text format, one column (a row: its columns, tab-separated).
    pub fn copy_text(&self) -> String {
        match self {
            Val::Int(v) => v.to_string(),
            Val::Text(s) => s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r"),
            Val::Bytes(b) => format!("\\\\x{}", hex_encode(b)),
            Val::Uuid(u) => {
                let h = hex_encode(u);
                format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
            }
            Val::Float(d) => float_text(*d),
            Val::Numeric(s) => s.clone(),
            Val::Bool(b) => (if *b { "t" } else { "f" }).into(),
            Val::Date(d) => date_text(*d as i64),
            Val::Ts(t) => ts_text(*t),
            Val::Tstz(t) => format!("{}+00", ts_text(*t)),
            Val::Row(cols) => cols.iter().map(|c| c.copy_text()).collect::<Vec<_>>().join("\t"),
        }
    }
}

fn float_text(d: f64) -> String {
    if d.is_nan() {
        "NaN".into()
    } else if d.is_infinite() {
        (if d > 0.0 { "Infinity" } else { "-Infinity" }).into()
    } else {
        format!("{:?}", d)
    }
}

/// Proleptic Gregorian (y, m, d) of days since 2000-01-01.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 730_425;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

pub fn date_text(days: i64) -> String {
    let (y, m, d) = civil(days);
    format!("{:04}-{:02}-{:02}", y, m, d)
}

pub fn ts_text(t: i64) -> String {
    let day = 86_400_000_000i64;
    let (d, us) = (t.div_euclid(day), t.rem_euclid(day));
    let s = us / 1_000_000;
    format!("{} {:02}:{:02}:{:02}.{:06}", date_text(d), s / 3600, s / 60 % 60, s % 60, us % 1_000_000)
}
