//! What changes for a signed-in person, told to the sockets their pages hold open
//! (`/api/me/socket`): their challenges, the games waiting for their move, and their
//! sessions ended. One channel an account, made when its first socket opens and dropped
//! with its last, so that news for an account nobody follows costs a map lookup.

use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// What changed for an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum News {
    /// A challenge the account sent or received was made, answered or withdrawn.
    Challenges,
    /// A game the account plays changed: the games waiting for its move may have.
    Waiting,
    /// The account's sessions were ended (signed out everywhere, a new password, the
    /// account deleted): its sockets close.
    SignedOut,
}

impl News {
    pub fn name(self) -> &'static str {
        match self {
            News::Challenges => "challenges",
            News::Waiting => "waiting",
            News::SignedOut => "signed-out",
        }
    }

    pub fn from_name(name: &str) -> Option<News> {
        [News::Challenges, News::Waiting, News::SignedOut]
            .into_iter()
            .find(|news| news.name() == name)
    }
}

/// Enough for a burst of moves; a socket that falls further behind sends everything.
const CAPACITY: usize = 16;

#[derive(Default)]
pub struct AccountNews {
    channels: Mutex<HashMap<i64, broadcast::Sender<News>>>,
}

impl AccountNews {
    fn channels(&self) -> std::sync::MutexGuard<'_, HashMap<i64, broadcast::Sender<News>>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hears the account's news from now on; give the receiver back with [`Self::leave`].
    pub fn follow(&self, account: i64) -> broadcast::Receiver<News> {
        self.channels()
            .entry(account)
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }

    /// Stops hearing: the account's channel goes with its last follower.
    pub fn leave(&self, account: i64, receiver: broadcast::Receiver<News>) {
        let mut channels = self.channels();
        drop(receiver);
        if channels
            .get(&account)
            .is_some_and(|sender| sender.receiver_count() == 0)
        {
            channels.remove(&account);
        }
    }

    /// Tells the account's sockets on this server.
    pub fn tell(&self, account: i64, news: News) {
        if let Some(sender) = self.channels().get(&account) {
            let _ = sender.send(news);
        }
    }

    /// Tells every followed account's sockets on this server.
    pub fn tell_all(&self, news: News) {
        for sender in self.channels().values() {
            let _ = sender.send(news);
        }
    }

    /// How many accounts are followed here.
    #[cfg(test)]
    pub fn followed(&self) -> usize {
        self.channels().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_reaches_the_accounts_followers_only_and_a_channel_goes_with_its_last() {
        let news = AccountNews::default();
        let mut first = news.follow(1);
        let second = news.follow(1);
        let mut other = news.follow(2);
        news.tell(1, News::Challenges);
        news.tell(3, News::Waiting);
        assert_eq!(first.try_recv(), Ok(News::Challenges));
        assert!(other.try_recv().is_err());
        news.tell_all(News::SignedOut);
        assert_eq!(first.try_recv(), Ok(News::SignedOut));
        assert_eq!(other.try_recv(), Ok(News::SignedOut));
        news.leave(1, second);
        assert_eq!(news.followed(), 2);
        news.leave(1, first);
        news.leave(2, other);
        assert_eq!(news.followed(), 0);
    }

    #[test]
    fn news_is_named_for_the_other_servers_both_ways() {
        for news in [News::Challenges, News::Waiting, News::SignedOut] {
            assert_eq!(News::from_name(news.name()), Some(news));
        }
        assert_eq!(News::from_name("moves"), None);
    }
}
