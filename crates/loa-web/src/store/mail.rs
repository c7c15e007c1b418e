//! Mail: each account's address, whether it is verified and what it wants sent; the
//! outbox; the reply addresses that play a move; the notices a player has not yet seen.

use super::{Store, StoreError};
use crate::mail::{Letter, Notices};
use sqlx::Row;

/// An account's mail settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailSettingsRow {
    pub name: String,
    pub email: Option<String>,
    pub verified: bool,
    pub notices: Notices,
    pub digest_at: Option<i64>,
}

impl MailSettingsRow {
    /// The address to write to: a verified one only.
    pub fn verified_email(&self) -> Option<&str> {
        self.email.as_deref().filter(|_| self.verified)
    }
}

/// An e-mail taken from the outbox to be sent.
#[derive(Clone, Debug)]
pub struct OutboxRow {
    pub id: i64,
    pub letter: Letter,
    pub attempts: i64,
}

/// What a reply address stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailMoveRow {
    pub game_id: String,
    pub account_id: i64,
    pub ply: i64,
}

/// An account due its daily digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestAccount {
    pub account_id: i64,
    pub email: String,
}

impl Store {
    pub async fn mail_settings(&self, account: i64) -> Result<Option<MailSettingsRow>, StoreError> {
        let row = sqlx::query(
            "SELECT name, email, email_verified_at, notices, digest_at FROM accounts
             WHERE id = $1 AND deleted_at IS NULL",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        let notices: String = r.try_get("notices")?;
        Ok(Some(MailSettingsRow {
            name: r.try_get("name")?,
            email: r.try_get("email")?,
            verified: r.try_get::<Option<i64>, _>("email_verified_at")?.is_some(),
            notices: notices.parse().unwrap_or_default(),
            digest_at: r.try_get("digest_at")?,
        }))
    }

    pub async fn set_notices(&self, account: i64, notices: Notices) -> Result<(), StoreError> {
        sqlx::query("UPDATE accounts SET notices = $2 WHERE id = $1")
            .bind(account)
            .bind(notices.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new address (`None`: none), not yet verified. Links made for an earlier address
    /// verify nothing while it is not the account's (they are kept: they count against
    /// the number a day).
    pub async fn set_email(&self, account: i64, email: Option<&str>) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET email = $2, email_verified_at = NULL WHERE id = $1")
            .bind(account)
            .bind(email)
            .execute(&mut *tx)
            .await?;
        // The reset links mailed to the address before are void, even should it come
        // back (marked spent: their time is their own, so none is needed here).
        sqlx::query(
            "UPDATE password_resets SET used_at = created_at
             WHERE account_id = $1 AND used_at IS NULL",
        )
        .bind(account)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The verification links made for an account, or to an address (in any case),
    /// since `since`, and when the last was.
    pub async fn verifications_since(
        &self,
        account: i64,
        email: &str,
        since: i64,
    ) -> Result<(i64, Option<i64>), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*), MAX(created_at) FROM email_verifications
             WHERE (account_id = $1 OR LOWER(email) = LOWER($2)) AND created_at >= $3",
        )
        .bind(account)
        .bind(email)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }

    /// A link that will verify `email` as the account's address.
    pub async fn add_verification(
        &self,
        token_hash: &str,
        account: i64,
        email: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO email_verifications (token_hash, account_id, email, created_at)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(account)
        .bind(email)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Verifies the address a link was made for, if it is still the account's and the
    /// link is younger than `oldest`; answers the account's name.
    pub async fn verify_email(
        &self,
        token_hash: &str,
        oldest: i64,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found = sqlx::query(
            "DELETE FROM email_verifications WHERE token_hash = $1 RETURNING account_id, email,
                created_at",
        )
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(r) = found else {
            return Ok(None);
        };
        let (account, email, created_at): (i64, String, i64) =
            (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?);
        if created_at < oldest {
            tx.commit().await?;
            return Ok(None);
        }
        let name: Option<String> = sqlx::query_scalar(
            "UPDATE accounts SET email_verified_at = $3
             WHERE id = $1 AND email = $2 AND deleted_at IS NULL RETURNING name",
        )
        .bind(account)
        .bind(&email)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(name)
    }

    /// The account's unsubscribe secret, `fresh` the first time it is asked for. It is
    /// kept as it is, to be put in every e-mail: it can only turn the notices off.
    pub async fn unsubscribe_secret(
        &self,
        account: i64,
        fresh: &str,
    ) -> Result<Option<String>, StoreError> {
        sqlx::query(
            "UPDATE accounts SET unsubscribe_token = $2
             WHERE id = $1 AND unsubscribe_token IS NULL",
        )
        .bind(account)
        .bind(fresh)
        .execute(&self.pool)
        .await?;
        Ok(
            sqlx::query_scalar("SELECT unsubscribe_token FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_optional(&self.pool)
                .await?
                .flatten(),
        )
    }

    /// Turns every notice off for the account an unsubscribe link names; its name.
    pub async fn unsubscribe(&self, secret: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "UPDATE accounts SET notices = 'off' WHERE unsubscribe_token = $1 RETURNING name",
        )
        .bind(secret)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Puts an e-mail in the outbox, to be sent as soon as the worker can.
    pub async fn queue_mail(&self, letter: &Letter, now: i64) -> Result<i64, StoreError> {
        let id = sqlx::query_scalar(
            "INSERT INTO outbox (to_addr, subject, body, reply_to, unsubscribe, status,
                next_attempt_at, created_at)
             VALUES ($1, $2, $3, $4, $5, 'queued', $6, $6) RETURNING id",
        )
        .bind(&letter.to)
        .bind(&letter.subject)
        .bind(&letter.body)
        .bind(&letter.reply_to)
        .bind(&letter.unsubscribe)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// Takes the next e-mail due: marked as being sent (and its attempt counted) before
    /// it is, so that no other worker and no later run sends it again.
    pub async fn claim_mail(&self, now: i64) -> Result<Option<OutboxRow>, StoreError> {
        // Another server's worker claiming at the same moment takes the next row.
        let claim = format!(
            "UPDATE outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = $1
             WHERE id = (SELECT id FROM outbox WHERE status = 'queued' AND next_attempt_at <= $1
                         ORDER BY next_attempt_at, id LIMIT 1{})
               AND status = 'queued'
             RETURNING id, to_addr, subject, body, reply_to, unsubscribe, attempts",
            self.dialect.skip_locked()
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(claim))
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(OutboxRow {
            id: r.try_get("id")?,
            letter: Letter {
                to: r.try_get("to_addr")?,
                subject: r.try_get("subject")?,
                body: r.try_get("body")?,
                reply_to: r.try_get("reply_to")?,
                unsubscribe: r.try_get("unsubscribe")?,
            },
            attempts: r.try_get("attempts")?,
        }))
    }

    /// When the next queued e-mail is due, if any is.
    pub async fn next_mail_due(&self) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued'")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    pub async fn mail_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE outbox SET status = 'sent', sent_at = $2, error = NULL WHERE id = $1")
            .bind(id)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// An attempt that failed: tried again at `retry_at`, or never (`None`).
    pub async fn mail_failed(
        &self,
        id: i64,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        let status = if retry_at.is_some() {
            "queued"
        } else {
            "failed"
        };
        sqlx::query(
            "UPDATE outbox SET status = $2, error = $3, next_attempt_at = COALESCE($4, next_attempt_at)
             WHERE id = $1",
        )
        .bind(id)
        .bind(status)
        .bind(error)
        .bind(retry_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// E-mails a stopped server was sending when it stopped (claimed before
    /// `claimed_before`): whether the mail server took them is unknown, and sending them
    /// again could send them twice, so they are failed.
    pub async fn fail_interrupted_mail(&self, claimed_before: i64) -> Result<u64, StoreError> {
        Ok(sqlx::query(
            "UPDATE outbox SET status = 'failed',
                error = 'the server stopped while sending it; not sent again, so as never to send it twice'
             WHERE status = 'sending' AND next_attempt_at < $1",
        )
        .bind(claimed_before)
        .execute(&self.pool)
        .await?
        .rows_affected())
    }

    /// How many e-mails of the outbox are in this state.
    #[cfg(test)]
    pub async fn outbox_count(&self, status: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE status = $1")
                .bind(status)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// A reply address for `account`'s move after `ply` moves of a game.
    pub async fn create_mail_move(
        &self,
        token_hash: &str,
        game: &str,
        account: i64,
        ply: usize,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO mail_moves (token_hash, game_id, account_id, ply, created_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(game)
        .bind(account)
        .bind(i64::try_from(ply).unwrap_or(i64::MAX))
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Spends a reply address: what it stands for, the first time only.
    pub async fn spend_mail_move(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<MailMoveRow>, StoreError> {
        let row = sqlx::query(
            "UPDATE mail_moves SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL
             RETURNING game_id, account_id, ply",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(None);
        };
        Ok(Some(MailMoveRow {
            game_id: r.try_get("game_id")?,
            account_id: r.try_get("account_id")?,
            ply: r.try_get("ply")?,
        }))
    }

    /// Notes that `account` was told it is their move in `game`: `false`, and nothing
    /// noted, when they were told before and have not looked since.
    pub async fn note_notice(&self, game: &str, account: i64) -> Result<bool, StoreError> {
        let noted = sqlx::query(
            "INSERT INTO mail_notices (game_id, account_id, unseen) VALUES ($1, $2, 1)
             ON CONFLICT (game_id, account_id) DO UPDATE SET unseen = 1 WHERE mail_notices.unseen = 0",
        )
        .bind(game)
        .bind(account)
        .execute(&self.pool)
        .await?;
        Ok(noted.rows_affected() > 0)
    }

    /// `account` looked at `game` (or moved in it): the next move is told again.
    pub async fn note_seen(&self, game: &str, account: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE mail_notices SET unseen = 0 WHERE game_id = $1 AND account_id = $2
                AND unseen = 1",
        )
        .bind(game)
        .bind(account)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Notes the reminder of `account`'s move after `ply` moves: `false` if it was sent.
    pub async fn note_reminder(
        &self,
        game: &str,
        account: i64,
        ply: usize,
    ) -> Result<bool, StoreError> {
        let ply = i64::try_from(ply).unwrap_or(i64::MAX);
        let noted = sqlx::query(
            "INSERT INTO mail_notices (game_id, account_id, reminded_ply) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, account_id) DO UPDATE SET reminded_ply = $3
             WHERE mail_notices.reminded_ply IS NULL OR mail_notices.reminded_ply <> $3",
        )
        .bind(game)
        .bind(account)
        .bind(ply)
        .execute(&self.pool)
        .await?;
        Ok(noted.rows_affected() > 0)
    }

    /// The accounts that want a daily digest and are due one (none since `before`).
    pub async fn digests_due(&self, before: i64) -> Result<Vec<DigestAccount>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, email FROM accounts
             WHERE notices = 'digest' AND email_verified_at IS NOT NULL AND deleted_at IS NULL
               AND email IS NOT NULL AND (digest_at IS NULL OR digest_at < $1)",
        )
        .bind(before)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(DigestAccount {
                    account_id: r.try_get("id")?,
                    email: r.try_get("email")?,
                })
            })
            .collect()
    }

    /// Claims an account's digest for now: `false` when it was sent since `before` (by
    /// another server sharing the database), so that one server sends it.
    pub async fn note_digest(
        &self,
        account: i64,
        now: i64,
        before: i64,
    ) -> Result<bool, StoreError> {
        let claimed = sqlx::query(
            "UPDATE accounts SET digest_at = $2
             WHERE id = $1 AND (digest_at IS NULL OR digest_at < $3)",
        )
        .bind(account)
        .bind(now)
        .bind(before)
        .execute(&self.pool)
        .await?;
        Ok(claimed.rows_affected() == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn store_with_game(db: &super::super::testing::TestDatabase) -> (Store, i64) {
        let store = db.open().await;
        let ann = store
            .create_account("Ann", "ann", "h", Some("ann@example.org"), false, 1)
            .await
            .unwrap()
            .unwrap();
        sqlx::query(
            "INSERT INTO games (id, created_at, updated_at, variant, rules, start, players,
                names, online) VALUES ('g', 0, 0, 'standard', 'draw', '', '[]', '[]', 1)",
        )
        .execute(&store.pool)
        .await
        .unwrap();
        (store, ann.id)
    }

    fn letter(to: &str) -> Letter {
        Letter {
            to: to.into(),
            subject: "s".into(),
            body: "b".into(),
            reply_to: None,
            unsubscribe: None,
        }
    }

    #[tokio::test]
    async fn an_email_is_claimed_once_retried_when_due_and_never_sent_twice() {
        for db in super::super::testing::every_database().await {
            let (store, _) = store_with_game(&db).await;
            store
                .queue_mail(&letter("a@example.org"), 100)
                .await
                .unwrap();
            assert!(store.claim_mail(99).await.unwrap().is_none(), "not yet due");
            let claimed = store.claim_mail(100).await.unwrap().unwrap();
            assert_eq!(
                (claimed.letter.to.as_str(), claimed.attempts),
                ("a@example.org", 1)
            );
            assert!(
                store.claim_mail(100).await.unwrap().is_none(),
                "claimed once"
            );
            store
                .mail_failed(claimed.id, "busy", Some(5_000))
                .await
                .unwrap();
            assert_eq!(store.next_mail_due().await.unwrap(), Some(5_000));
            assert!(store.claim_mail(4_999).await.unwrap().is_none());
            let again = store.claim_mail(5_000).await.unwrap().unwrap();
            assert_eq!(again.attempts, 2);
            store.mail_sent(again.id, 5_001).await.unwrap();
            assert_eq!(store.outbox_count("sent").await.unwrap(), 1);
            assert_eq!(store.next_mail_due().await.unwrap(), None);
            // One being sent when the server stopped is failed, not sent again.
            store
                .queue_mail(&letter("b@example.org"), 6_000)
                .await
                .unwrap();
            store.claim_mail(6_000).await.unwrap().unwrap();
            assert_eq!(store.fail_interrupted_mail(i64::MAX).await.unwrap(), 1);
            assert_eq!(store.outbox_count("failed").await.unwrap(), 1);
            assert!(store.claim_mail(i64::MAX).await.unwrap().is_none());
        }
    }

    #[tokio::test]
    async fn a_reply_address_is_spent_once() {
        for db in super::super::testing::every_database().await {
            let (store, ann) = store_with_game(&db).await;
            store.create_mail_move("h1", "g", ann, 4, 10).await.unwrap();
            let spent = store.spend_mail_move("h1", 11).await.unwrap();
            assert_eq!(
                spent,
                Some(MailMoveRow {
                    game_id: "g".into(),
                    account_id: ann,
                    ply: 4
                })
            );
            assert_eq!(store.spend_mail_move("h1", 12).await.unwrap(), None);
            assert_eq!(store.spend_mail_move("forged", 12).await.unwrap(), None);
        }
    }

    #[tokio::test]
    async fn a_player_is_told_once_until_they_look_and_reminded_once_a_move() {
        for db in super::super::testing::every_database().await {
            let (store, ann) = store_with_game(&db).await;
            assert!(store.note_notice("g", ann).await.unwrap());
            assert!(
                !store.note_notice("g", ann).await.unwrap(),
                "not looked since"
            );
            store.note_seen("g", ann).await.unwrap();
            assert!(store.note_notice("g", ann).await.unwrap());
            assert!(store.note_reminder("g", ann, 6).await.unwrap());
            assert!(!store.note_reminder("g", ann, 6).await.unwrap());
            assert!(store.note_reminder("g", ann, 8).await.unwrap());
        }
    }

    #[tokio::test]
    async fn a_link_verifies_the_address_it_was_made_for_while_it_is_young() {
        for db in super::super::testing::every_database().await {
            let (store, ann) = store_with_game(&db).await;
            let settings = store.mail_settings(ann).await.unwrap().unwrap();
            assert_eq!(settings.verified_email(), None);
            store
                .add_verification("old", ann, "ann@example.org", 10)
                .await
                .unwrap();
            // The address changed after the link was made: the link verifies nothing.
            store.set_email(ann, Some("ann@new.example")).await.unwrap();
            store
                .add_verification("new", ann, "ann@new.example", 20)
                .await
                .unwrap();
            assert_eq!(store.verify_email("old", 0, 30).await.unwrap(), None);
            assert_eq!(
                store.verify_email("new", 21, 30).await.unwrap(),
                None,
                "too old"
            );
            store
                .add_verification("fresh", ann, "ann@new.example", 40)
                .await
                .unwrap();
            assert_eq!(
                store.verify_email("fresh", 0, 50).await.unwrap().as_deref(),
                Some("Ann")
            );
            let settings = store.mail_settings(ann).await.unwrap().unwrap();
            assert_eq!(settings.verified_email(), Some("ann@new.example"));
            assert_eq!(
                store.verify_email("fresh", 0, 60).await.unwrap(),
                None,
                "once"
            );
        }
    }

    #[tokio::test]
    async fn the_unsubscribe_secret_is_made_once_and_turns_notices_off() {
        for db in super::super::testing::every_database().await {
            let (store, ann) = store_with_game(&db).await;
            let first = store.unsubscribe_secret(ann, "s1").await.unwrap();
            assert_eq!(first.as_deref(), Some("s1"));
            assert_eq!(store.unsubscribe_secret(ann, "s2").await.unwrap(), first);
            assert_eq!(store.unsubscribe("s2").await.unwrap(), None);
            assert_eq!(
                store.unsubscribe("s1").await.unwrap().as_deref(),
                Some("Ann")
            );
            let settings = store.mail_settings(ann).await.unwrap().unwrap();
            assert_eq!(settings.notices, Notices::Off);
        }
    }
}
