//! Where a request comes from: the network of the client's address, for the limits that
//! count by client rather than by account (sign-ups, the engine's study places).
//!
//! The address is the connection's peer, or, behind a proxy, the one the proxy writes in
//! a header the server is told to trust (`--client-address-header`). A client may write
//! any header itself, so the proxy's is the last address of it: the one the proxy added.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderName;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The connection's peer, put on each request as it is taken.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// The header a trusted proxy gives the client's address in (`X-Real-IP`,
/// `X-Forwarded-For`), when the server is behind one.
#[derive(Clone, Debug)]
pub struct AddressHeader(pub HeaderName);

/// The client's network, as the limits count it: an IPv4 address, or an IPv6 address's
/// /64 (one household or one machine is given a /64, and could walk its addresses).
/// `None` when it is not known, or is this machine (an unconfigured proxy in front would
/// otherwise make every visitor one client).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientNetwork(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for ClientNetwork {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<Peer>().map(|peer| peer.0.ip());
        let given = parts
            .extensions
            .get::<AddressHeader>()
            .and_then(|header| parts.headers.get(&header.0))
            .and_then(|value| value.to_str().ok())
            .and_then(last_address);
        Ok(ClientNetwork(given.or(peer).and_then(network_of)))
    }
}

/// The last address of a header's value (`client, proxy1, proxy2`): the one written by
/// the proxy in front of the server.
fn last_address(value: &str) -> Option<IpAddr> {
    let last = value.rsplit(',').next()?.trim();
    last.parse().ok().or_else(|| {
        // "1.2.3.4:5678" and "[::1]:5678", as some proxies write them.
        last.parse::<SocketAddr>().ok().map(|a| a.ip())
    })
}

fn network_of(address: IpAddr) -> Option<String> {
    let address = address.to_canonical();
    if address.is_loopback() || address.is_unspecified() {
        return None;
    }
    Some(match address {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    })
}

/// Study places (analysis boards, evaluations) one client's network may hold at once:
/// a client that opens many analysis boards waits for its own turns, and leaves the
/// others' places to them.
pub const STUDIES_PER_CLIENT: usize = 2;

/// Each client network's turns, while it has any taken or awaited.
pub struct ClientTurns {
    per_client: usize,
    turns: Mutex<Turns>,
}

struct Turns {
    by_network: HashMap<String, Weak<Semaphore>>,
    /// The map's size at which the networks nobody holds a turn of are let go.
    sweep_at: usize,
}

impl ClientTurns {
    pub fn new(per_client: usize) -> ClientTurns {
        ClientTurns {
            per_client,
            turns: Mutex::new(Turns {
                by_network: HashMap::new(),
                sweep_at: 1_024,
            }),
        }
    }

    /// Waits for one of the client's turns, held until the permit is dropped; at once
    /// for a client whose network is not known (this machine, a test).
    pub async fn take(&self, client: &ClientNetwork) -> Option<OwnedSemaphorePermit> {
        let network = client.0.as_deref()?;
        self.turns_of(network).acquire_owned().await.ok()
    }

    fn turns_of(&self, network: &str) -> Arc<Semaphore> {
        let mut turns = self
            .turns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(held) = turns.by_network.get(network).and_then(Weak::upgrade) {
            return held;
        }
        if turns.by_network.len() >= turns.sweep_at {
            turns.by_network.retain(|_, held| held.strong_count() > 0);
            turns.sweep_at = (2 * turns.by_network.len()).max(1_024);
        }
        let fresh = Arc::new(Semaphore::new(self.per_client));
        turns
            .by_network
            .insert(network.to_string(), Arc::downgrade(&fresh));
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;
    use std::time::Duration;

    async fn network(
        peer: &str,
        header: Option<(&str, &str)>,
        trusted: Option<&'static str>,
    ) -> ClientNetwork {
        let mut request = Request::builder().uri("/");
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        parts.extensions.insert(Peer(peer.parse().unwrap()));
        if let Some(trusted) = trusted {
            parts
                .extensions
                .insert(AddressHeader(HeaderName::from_static(trusted)));
        }
        let Ok(network) = ClientNetwork::from_request_parts(&mut parts, &()).await;
        network
    }

    fn known(network: &str) -> ClientNetwork {
        ClientNetwork(Some(network.to_string()))
    }

    #[tokio::test]
    async fn the_peer_is_the_client_unless_a_proxy_is_trusted() {
        assert_eq!(
            network("203.0.113.7:4000", None, None).await,
            known("203.0.113.7")
        );
        // A header nobody was told to trust is the client's own word: not read.
        let forged = Some(("x-forwarded-for", "198.51.100.1"));
        assert_eq!(
            network("203.0.113.7:4000", forged, None).await,
            known("203.0.113.7")
        );
        let trusted = Some("x-forwarded-for");
        assert_eq!(
            network("127.0.0.1:4000", forged, trusted).await,
            known("198.51.100.1")
        );
        // What a client wrote before the proxy's own address is passed over.
        let chain = Some(("x-forwarded-for", "10.9.9.9, 198.51.100.1 , 192.0.2.4"));
        assert_eq!(
            network("127.0.0.1:4000", chain, trusted).await,
            known("192.0.2.4")
        );
        let with_port = Some(("x-real-ip", "[2001:db8::1]:443"));
        assert_eq!(
            network("127.0.0.1:4000", with_port, Some("x-real-ip")).await,
            known("2001:db8:0:0::/64")
        );
        // A header missing or unreadable: the peer, here this machine, is not counted.
        assert_eq!(
            network("127.0.0.1:4000", None, trusted).await,
            ClientNetwork(None)
        );
        let junk = Some(("x-forwarded-for", "1.2.3.4, not an address"));
        assert_eq!(
            network("[::1]:4000", junk, trusted).await,
            ClientNetwork(None)
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let a = network_of("2001:db8:aa:bb:1:2:3:4".parse().unwrap());
        let b = network_of("2001:db8:aa:bb:ffff::9".parse().unwrap());
        assert_eq!(a.as_deref(), Some("2001:db8:aa:bb::/64"));
        assert_eq!(a, b);
        assert_ne!(a, network_of("2001:db8:aa:bc::1".parse().unwrap()));
        // An IPv4 address written as IPv6 is the IPv4 address.
        assert_eq!(
            network_of("::ffff:203.0.113.7".parse().unwrap()).as_deref(),
            Some("203.0.113.7")
        );
        assert_eq!(network_of("0.0.0.0".parse().unwrap()), None);
    }

    #[tokio::test]
    async fn a_client_waits_for_its_own_turns_only() {
        let turns = ClientTurns::new(2);
        let (a, b) = (known("203.0.113.7"), known("2001:db8::/64"));
        let first = turns.take(&a).await.unwrap();
        let _second = turns.take(&a).await.unwrap();
        let third = turns.take(&a);
        let mut third = std::pin::pin!(third);
        let waits = tokio::time::timeout(Duration::from_millis(50), third.as_mut()).await;
        assert!(waits.is_err(), "a third turn is given");
        // Another client, or one not known, is not held up.
        assert!(turns.take(&b).await.is_some());
        assert!(turns.take(&ClientNetwork(None)).await.is_none());
        drop(first);
        assert!(third.await.is_some());
    }

    #[tokio::test]
    async fn networks_with_no_turn_held_are_let_go() {
        let turns = ClientTurns::new(1);
        let client = known("198.51.100.1");
        let held = turns.take(&client).await;
        for n in 0..3_000 {
            drop(
                turns
                    .take(&known(&format!("10.0.{}.{}", n / 256, n % 256)))
                    .await,
            );
        }
        let kept = turns.turns.lock().unwrap().by_network.len();
        assert!(kept <= 2_048, "{kept} networks kept");
        // The network whose turn is held still waits for it.
        let again = turns.take(&client);
        assert!(tokio::time::timeout(Duration::from_millis(50), again)
            .await
            .is_err());
        drop(held);
    }
}
