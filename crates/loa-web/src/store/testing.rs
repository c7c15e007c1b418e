//! Databases for tests: a SQLite file in a temporary folder, or a PostgreSQL database of
//! its own in a throw-away cluster that the test process starts (Debian's `postgresql`:
//! `initdb` in a temporary folder, `pg_ctl start` on a free port, as the `postgres` user
//! when running as root) and that stops when the process ends.
//!
//! `LOA_TEST_DATABASE=postgres` runs the in-process web tests on PostgreSQL; the store's
//! own tests run on both. Without PostgreSQL installed those say so and are skipped,
//! unless `LOA_REQUIRE_POSTGRES` is set (as CI does), which fails them.

use super::{Database, Store};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A database for one test, gone with it (the cluster's databases with the cluster).
pub struct TestDatabase {
    pub database: Database,
    _dir: Option<tempfile::TempDir>,
}

impl TestDatabase {
    /// A new SQLite file.
    pub fn sqlite() -> TestDatabase {
        let dir = tempfile::tempdir().expect("a temporary folder");
        TestDatabase {
            database: Database::File(dir.path().join("games.db")),
            _dir: Some(dir),
        }
    }

    /// A new, empty PostgreSQL database, or `None` (said on stderr) when PostgreSQL is
    /// not installed and not required.
    pub async fn postgres() -> Option<TestDatabase> {
        let cluster = CLUSTER.get_or_init(Cluster::start).as_ref();
        let Some(cluster) = cluster else {
            assert!(
                std::env::var_os("LOA_REQUIRE_POSTGRES").is_none(),
                "LOA_REQUIRE_POSTGRES is set but PostgreSQL's initdb was not found"
            );
            eprintln!("skipped on PostgreSQL: initdb not found (apt-get install postgresql)");
            return None;
        };
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!("test_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", cluster.port);
        let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&admin)
            .await
            .expect("the test cluster takes connections");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .expect("a test database is made");
        Some(TestDatabase {
            database: Database::Postgres(format!(
                "postgres://postgres@127.0.0.1:{}/{name}",
                cluster.port
            )),
            _dir: None,
        })
    }

    /// [`TestDatabase::postgres`] for a test without a runtime of its own.
    #[cfg(feature = "testing")]
    pub fn postgres_blocking() -> Option<TestDatabase> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(TestDatabase::postgres())
    }

    /// The database the web tests run on: PostgreSQL when `LOA_TEST_DATABASE=postgres`.
    pub async fn chosen() -> TestDatabase {
        match std::env::var("LOA_TEST_DATABASE").as_deref() {
            Ok("postgres") => TestDatabase::postgres()
                .await
                .expect("LOA_TEST_DATABASE=postgres needs PostgreSQL installed"),
            _ => TestDatabase::sqlite(),
        }
    }

    /// The same database again, for a second server (the first keeps its folder).
    pub fn shared(&self) -> TestDatabase {
        TestDatabase {
            database: self.database.clone(),
            _dir: None,
        }
    }

    pub async fn open(&self) -> Store {
        Store::open(&self.database)
            .await
            .expect("the test database opens")
    }
}

/// Each database a test of the store runs on: SQLite, and PostgreSQL when installed.
pub async fn every_database() -> Vec<TestDatabase> {
    let mut databases = vec![TestDatabase::sqlite()];
    databases.extend(TestDatabase::postgres().await);
    databases
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();

/// A PostgreSQL cluster of this test process.
struct Cluster {
    port: u16,
    /// Stops the cluster when this process is gone (it outlives it).
    _watcher: std::process::Child,
}

impl Cluster {
    /// Makes and starts the cluster, and a watcher that stops it and removes its folder
    /// once this process is gone. `None` when PostgreSQL is not installed.
    fn start() -> Option<Cluster> {
        let bin = postgres_bin()?;
        let dir = std::env::temp_dir().join(format!("loa-test-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the cluster's folder");
        let as_root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        if as_root {
            // PostgreSQL refuses to run as root: the folder is the postgres user's.
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .expect("chown runs");
            assert!(status.success(), "chown of the cluster's folder failed");
        }
        let data = dir.join("data");
        let run = |program: &str, args: &[&str]| {
            let mut command = if as_root {
                let mut command = Command::new("runuser");
                command
                    .args(["-u", "postgres", "--"])
                    .arg(bin.join(program));
                command
            } else {
                Command::new(bin.join(program))
            };
            let output = command
                .args(args)
                .stdin(Stdio::null())
                .output()
                .unwrap_or_else(|e| panic!("{program} cannot run: {e}"));
            assert!(
                output.status.success(),
                "{program} failed: {}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        };
        let data_arg = data.to_str().expect("a UTF-8 temporary folder");
        run(
            "initdb",
            &[
                "-D",
                data_arg,
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        );
        let port = free_port();
        // Durability off: a test cluster is thrown away.
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            dir.display()
        );
        let log = dir.join("log");
        run(
            "pg_ctl",
            &[
                "-D",
                data_arg,
                "-o",
                &options,
                "-l",
                log.to_str().expect("a UTF-8 temporary folder"),
                "-w",
                "start",
            ],
        );
        let pg_ctl = bin.join("pg_ctl");
        let stop = if as_root {
            format!(
                "runuser -u postgres -- {} -D {data_arg} -m immediate stop",
                pg_ctl.display()
            )
        } else {
            format!("{} -D {data_arg} -m immediate stop", pg_ctl.display())
        };
        let watcher = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {stop} >/dev/null 2>&1; rm -rf {dir}",
            pid = std::process::id(),
            dir = dir.display()
        );
        let watcher = Command::new("sh")
            .args(["-c", &watcher])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the cluster's watcher starts");
        Some(Cluster {
            port,
            _watcher: watcher,
        })
    }
}

/// Where PostgreSQL's server programs are: Debian keeps them off the PATH.
fn postgres_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path).find(|dir| Path::new(dir).join("initdb").exists())
        })
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}
