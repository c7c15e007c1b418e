//! What one server tells the others on the same database: a game changed (its id and
//! new version), the lobby's seeks changed, a tournament changed, news for an account's
//! sockets (its challenges, its sessions ended). On PostgreSQL each is a
//! `NOTIFY` on the channel `loa` (ids only: payloads are capped at 8,000 bytes), sent with
//! the change's own transaction so that it arrives only once the change can be read; on
//! SQLite there is one server and nothing to tell.

use super::{Database, Dialect, Store, StoreError};
use crate::account_news::News;
use std::time::Duration;

/// The channel every server listens on.
const CHANNEL: &str = "loa";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Game { id: String, version: i64 },
    Lobby,
    Tournament(String),
    Account { id: i64, news: News },
}

impl Event {
    fn payload(&self) -> String {
        match self {
            Event::Game { id, version } => format!("game {id} {version}"),
            Event::Lobby => "lobby".into(),
            Event::Tournament(id) => format!("tournament {id}"),
            Event::Account { id, news } => format!("account {id} {}", news.name()),
        }
    }

    /// An event from its payload; `None` for one this version does not know (a newer
    /// server's), which is passed over.
    fn parse(payload: &str) -> Option<Event> {
        let mut words = payload.split(' ');
        let event = match (words.next()?, words.next(), words.next()) {
            ("game", Some(id), Some(version)) => Event::Game {
                id: id.to_string(),
                version: version.parse().ok()?,
            },
            ("lobby", None, None) => Event::Lobby,
            ("tournament", Some(id), None) => Event::Tournament(id.to_string()),
            ("account", Some(id), Some(news)) => Event::Account {
                id: id.parse().ok()?,
                news: News::from_name(news)?,
            },
            _ => return None,
        };
        words.next().is_none().then_some(event)
    }
}

impl Store {
    /// Tells the other servers, once `tx` commits.
    pub(super) async fn announce_in(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        event: &Event,
    ) -> Result<(), StoreError> {
        if self.dialect == Dialect::Postgres {
            notify(&mut **tx, &self.origin, event).await?;
        }
        Ok(())
    }

    /// Tells the other servers now.
    pub async fn announce(&self, event: &Event) -> Result<(), StoreError> {
        if self.dialect == Dialect::Postgres {
            notify(&self.pool, &self.origin, event).await?;
        }
        Ok(())
    }

    /// What the other servers announce, as it comes; `None` on SQLite. A lost connection
    /// is made again (events sent meanwhile are lost: `Reconnected` says so, and the
    /// listener should read again what it holds).
    pub async fn listen(&self) -> Result<Option<Listener>, StoreError> {
        let Database::Postgres(url) = &self.database else {
            return Ok(None);
        };
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen(CHANNEL).await?;
        Ok(Some(Listener {
            listener,
            origin: self.origin.clone(),
        }))
    }
}

async fn notify<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    origin: &str,
    event: &Event,
) -> Result<(), StoreError> {
    // pg_notify's void is not a type the Any driver reads: the row counts it instead.
    sqlx::query("SELECT COUNT(*) FROM (SELECT pg_notify($1, $2)) AS sent")
        .bind(CHANNEL)
        // The sender first: a server passes over what it said itself.
        .bind(format!("{origin} {}", event.payload()))
        .execute(executor)
        .await?;
    Ok(())
}

/// What comes from the other servers.
#[derive(Debug, PartialEq, Eq)]
pub enum Heard {
    Event(Event),
    /// The connection was lost and made again: anything may have changed meanwhile.
    Reconnected,
}

pub struct Listener {
    listener: sqlx::postgres::PgListener,
    /// This server's id: its own events come back too, and are passed over.
    origin: String,
}

impl Listener {
    /// The next event. A database that cannot be reached is tried again every second.
    pub async fn next(&mut self) -> Heard {
        loop {
            match self.listener.try_recv().await {
                Ok(Some(notification)) => {
                    let heard = notification
                        .payload()
                        .split_once(' ')
                        .filter(|(from, _)| *from != self.origin)
                        .and_then(|(_, event)| Event::parse(event));
                    if let Some(event) = heard {
                        return Heard::Event(event);
                    }
                }
                // The connection was lost; the next call makes it again.
                Ok(None) => return Heard::Reconnected,
                Err(err) => {
                    tracing::warn!("listening to the other servers: {err}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_back_from_their_payloads_and_unknown_ones_passed_over() {
        for event in [
            Event::Game {
                id: "abc".into(),
                version: 7,
            },
            Event::Lobby,
            Event::Tournament("t1".into()),
            Event::Account {
                id: 42,
                news: News::SignedOut,
            },
        ] {
            assert_eq!(Event::parse(&event.payload()), Some(event));
        }
        for unknown in [
            "",
            "game abc",
            "game abc x",
            "lobby now",
            "seek 1",
            "game a 1 2",
            "account x challenges",
            "account 4 moves",
            "account 4",
        ] {
            assert_eq!(Event::parse(unknown), None, "{unknown}");
        }
    }

    #[tokio::test]
    async fn a_change_is_heard_by_another_server_on_postgres_once_committed() {
        let Some(db) = TestDatabase::postgres().await else {
            return;
        };
        let (one, other) = (db.open().await, db.open().await);
        let mut heard = other.listen().await.unwrap().expect("PostgreSQL listens");
        let mut tx = one.pool.begin().await.unwrap();
        let event = Event::Game {
            id: "g".into(),
            version: 3,
        };
        one.announce_in(&mut tx, &event).await.unwrap();
        // Nothing before the commit.
        assert!(
            tokio::time::timeout(Duration::from_millis(200), heard.next())
                .await
                .is_err()
        );
        tx.commit().await.unwrap();
        assert_eq!(heard.next().await, Heard::Event(event));
        // A server passes over its own events: only the other's lobby is heard.
        other
            .announce(&Event::Tournament("mine".into()))
            .await
            .unwrap();
        one.announce(&Event::Lobby).await.unwrap();
        assert_eq!(heard.next().await, Heard::Event(Event::Lobby));
        assert!(TestDatabase::sqlite()
            .open()
            .await
            .listen()
            .await
            .unwrap()
            .is_none());
    }

    use super::super::testing::TestDatabase;
}
