//! Password resets: the accounts a verified address leads to, and the links mailed to
//! it, each kept as the SHA-256 of its secret, working for a while and once.

use super::accounts::{account_row, new_password};
use super::{AccountRow, Store, StoreError};
use sqlx::Row;

/// An account a reset link may be mailed to, at its verified address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResetAccount {
    pub id: i64,
    pub name: String,
    pub email: String,
}

/// What a reset link stands for now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetLink {
    /// Not one of ours (or forgotten, a day after it was made).
    Unknown,
    /// Used already, or made void: a new password, or an address other than the one it
    /// was mailed to (or no longer verified), or the account closed.
    Used,
    Expired,
    /// It sets the account's password.
    Live(AccountRow),
}

/// A link's row, with its account as it is now.
struct Found {
    account: AccountRow,
    sent_to: String,
    made_at: i64,
    used: bool,
    verified: bool,
}

impl Found {
    fn link(self, oldest: i64) -> ResetLink {
        let void = self.account.deleted
            || !self.verified
            || self.account.email.as_deref() != Some(self.sent_to.as_str());
        if self.used || void {
            ResetLink::Used
        } else if self.made_at < oldest {
            ResetLink::Expired
        } else {
            ResetLink::Live(self.account)
        }
    }
}

async fn found<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    token_hash: &str,
) -> Result<Option<Found>, StoreError> {
    let row = sqlx::query(
        "SELECT a.id, a.name, a.email, a.bot, a.created_at, a.deleted_at, a.email_verified_at,
             r.email AS sent_to, r.created_at AS made_at, r.used_at
         FROM password_resets r JOIN accounts a ON a.id = r.account_id
         WHERE r.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(executor)
    .await?;
    let Some(r) = row else {
        return Ok(None);
    };
    Ok(Some(Found {
        account: account_row(&r)?,
        sent_to: r.try_get("sent_to")?,
        made_at: r.try_get("made_at")?,
        used: r.try_get::<Option<i64>, _>("used_at")?.is_some(),
        verified: r.try_get::<Option<i64>, _>("email_verified_at")?.is_some(),
    }))
}

impl Store {
    /// The accounts whose verified address is `email`, in any case.
    pub async fn accounts_by_verified_email(
        &self,
        email: &str,
    ) -> Result<Vec<ResetAccount>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, email FROM accounts
             WHERE LOWER(email) = LOWER($1) AND email_verified_at IS NOT NULL
               AND deleted_at IS NULL
             ORDER BY id",
        )
        .bind(email)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ResetAccount {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    email: r.try_get("email")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }

    /// A link that resets the account's password, mailed to `email`; the links made
    /// before `forget_before` are forgotten.
    pub async fn add_password_reset(
        &self,
        token_hash: &str,
        account: i64,
        email: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM password_resets WHERE created_at < $1")
            .bind(forget_before)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO password_resets (token_hash, account_id, email, created_at)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(account)
        .bind(email)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// What a link stands for now; one made before `oldest` has expired.
    pub async fn password_reset(
        &self,
        token_hash: &str,
        oldest: i64,
    ) -> Result<ResetLink, StoreError> {
        Ok(found(&self.pool, token_hash)
            .await?
            .map_or(ResetLink::Unknown, |f| f.link(oldest)))
    }

    /// Spends a live link on a new password, set as [`Store::set_password`] sets one
    /// (every session ended, every API token and device revoked, every other link void),
    /// in one transaction: answers `Live` with the account, or what the link is instead.
    pub async fn reset_password(
        &self,
        token_hash: &str,
        password_hash: &str,
        oldest: i64,
        now: i64,
    ) -> Result<ResetLink, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Claimed first, so that two uses at once cannot both pass (and SQLite takes its
        // write lock before anything is read).
        let claimed = sqlx::query(
            "UPDATE password_resets SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL",
        )
        .bind(token_hash)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            drop(tx);
            return Ok(match self.password_reset(token_hash, oldest).await? {
                ResetLink::Live(_) => ResetLink::Used,
                link => link,
            });
        }
        let link = match found(&mut *tx, token_hash).await? {
            Some(f) => Found { used: false, ..f }.link(oldest),
            None => ResetLink::Unknown,
        };
        // Not live: rolled back, the claim with it.
        let ResetLink::Live(account) = link else {
            return Ok(link);
        };
        new_password(&mut tx, account.id, password_hash, None, now).await?;
        tx.commit().await?;
        Ok(ResetLink::Live(account))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::every_database;

    async fn verified(store: &Store, name: &str, email: &str) -> AccountRow {
        let account = store
            .create_account(name, &name.to_lowercase(), "h", Some(email), false, 1)
            .await
            .unwrap()
            .unwrap();
        store
            .add_verification(name, account.id, email, 2)
            .await
            .unwrap();
        store.verify_email(name, 0, 3).await.unwrap().unwrap();
        account
    }

    #[tokio::test]
    async fn an_address_leads_to_its_verified_accounts_in_any_case() {
        for db in every_database().await {
            let store = db.open().await;
            let ann = verified(&store, "Ann", "Ann@Example.org").await;
            let bob = verified(&store, "Bob", "ann@example.org").await;
            store
                .create_account("Cy", "cy", "h", Some("ann@example.org"), false, 1)
                .await
                .unwrap();
            let found = store
                .accounts_by_verified_email("ANN@example.ORG")
                .await
                .unwrap();
            let names: Vec<_> = found.iter().map(|a| (a.id, a.email.as_str())).collect();
            assert_eq!(
                names,
                [(ann.id, "Ann@Example.org"), (bob.id, "ann@example.org")],
                "the unverified one left out"
            );
            store.delete_account(bob.id, 4).await.unwrap();
            assert_eq!(
                store
                    .accounts_by_verified_email("ann@example.org")
                    .await
                    .unwrap()
                    .len(),
                1
            );
        }
    }

    #[tokio::test]
    async fn a_link_works_once_while_young_and_for_the_address_it_went_to() {
        for db in every_database().await {
            let store = db.open().await;
            let ann = verified(&store, "Ann", "ann@example.org").await;
            for (hash, at) in [("h1", 100), ("h2", 100), ("old", 10)] {
                store
                    .add_password_reset(hash, ann.id, "ann@example.org", at, 0)
                    .await
                    .unwrap();
            }
            assert_eq!(
                store.password_reset("nope", 50).await.unwrap(),
                ResetLink::Unknown
            );
            assert_eq!(
                store.password_reset("old", 50).await.unwrap(),
                ResetLink::Expired
            );
            assert_eq!(
                store.reset_password("old", "new", 50, 200).await.unwrap(),
                ResetLink::Expired
            );
            assert!(matches!(
                store.password_reset("h1", 50).await.unwrap(),
                ResetLink::Live(a) if a.id == ann.id
            ));
            // A session and a token of the account, and another account's session.
            let bob = verified(&store, "Bob", "bob@example.org").await;
            for (id, account) in [("s-ann", ann.id), ("s-bob", bob.id)] {
                sqlx::query(
                    "INSERT INTO sessions (id, account_id, data, expires_at)
                     VALUES ($1, $2, '{}', 9999999999)",
                )
                .bind(id)
                .bind(account)
                .execute(&store.pool)
                .await
                .unwrap();
            }
            store.create_token(ann.id, "t", "th", 5).await.unwrap();
            assert!(matches!(
                store.reset_password("h1", "new", 50, 200).await.unwrap(),
                ResetLink::Live(a) if a.id == ann.id
            ));
            assert_eq!(store.password_hash(ann.id).await.unwrap().unwrap(), "new");
            let sessions: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions")
                .fetch_all(&store.pool)
                .await
                .unwrap();
            assert_eq!(sessions, ["s-bob"]);
            assert!(store.tokens(ann.id).await.unwrap().is_empty());
            // Used once; the other link sent before is void.
            for hash in ["h1", "h2"] {
                assert_eq!(
                    store.reset_password(hash, "again", 50, 300).await.unwrap(),
                    ResetLink::Used
                );
            }
            assert_eq!(store.password_hash(ann.id).await.unwrap().unwrap(), "new");
            // A link mailed to an address the account no longer has is void.
            store
                .add_password_reset("fresh", ann.id, "ann@example.org", 400, 0)
                .await
                .unwrap();
            store
                .set_email(ann.id, Some("ann@new.example"))
                .await
                .unwrap();
            assert_eq!(
                store.password_reset("fresh", 50).await.unwrap(),
                ResetLink::Used
            );
            // And stays void when the old address comes back, verified again.
            store
                .set_email(ann.id, Some("ann@example.org"))
                .await
                .unwrap();
            store
                .add_verification("again", ann.id, "ann@example.org", 410)
                .await
                .unwrap();
            assert!(store.verify_email("again", 0, 420).await.unwrap().is_some());
            assert_eq!(
                store.password_reset("fresh", 50).await.unwrap(),
                ResetLink::Used
            );
            // Links a day old are forgotten as the next is made.
            store
                .add_password_reset("next", bob.id, "bob@example.org", 500, 450)
                .await
                .unwrap();
            assert_eq!(
                store.password_reset("h2", 0).await.unwrap(),
                ResetLink::Unknown
            );
        }
    }

    #[tokio::test]
    async fn a_new_password_set_otherwise_voids_the_links_sent_before() {
        for db in every_database().await {
            let store = db.open().await;
            let ann = verified(&store, "Ann", "ann@example.org").await;
            store
                .add_password_reset("h", ann.id, "ann@example.org", 100, 0)
                .await
                .unwrap();
            store
                .set_password(ann.id, "changed", None, 150)
                .await
                .unwrap();
            assert_eq!(store.password_reset("h", 0).await.unwrap(), ResetLink::Used);
            // Closing the account forgets its links.
            store
                .add_password_reset("h2", ann.id, "ann@example.org", 200, 0)
                .await
                .unwrap();
            store.delete_account(ann.id, 300).await.unwrap();
            assert_eq!(
                store.password_reset("h2", 0).await.unwrap(),
                ResetLink::Unknown
            );
        }
    }
}
