//! Where a request comes from: the network of the client's address, for the limits that
//! count by client rather than by account (sign-ups, reset links asked for, seeks made
//! without an account, the engine's study places).
//!
//! The address is the connection's peer, or, behind a proxy, the one the proxy writes in
//! a header the server is told to trust (`--client-address-header`). A client may write
//! any header itself, so the proxy's is the last address of the header's last line: the
//! one the proxy added (a proxy may add a line of its own beside a client's). And the
//! header is read only from a peer that could be the proxy: one whose address is not
//! public (the proxy on this machine or its network) or in a network named with
//! `--trusted-proxy`; a client reaching the server directly is its own peer whatever it
//! writes.
//!
//! Addresses that are not public (this machine, a private network, a carrier's shared
//! range) are not counted: a proxy in front that was not named, or a club's own network,
//! would otherwise make every visitor one client.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderName;
use ipnet::IpNet;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The header a trusted proxy gives the client's address in (`X-Real-IP`,
/// `X-Forwarded-For`), when the server is behind one, and the public networks such a
/// proxy may connect from (beside the addresses that are not public, always trusted).
#[derive(Clone, Debug)]
pub struct AddressHeader {
    pub name: HeaderName,
    pub proxies: Arc<[IpNet]>,
}

impl AddressHeader {
    /// Whether a request from `peer` may have come through the proxy. A request with no
    /// peer did not come over the network (a test's, in the process).
    fn written_by_proxy(&self, peer: Option<IpAddr>) -> bool {
        peer.is_none_or(|peer| {
            let peer = peer.to_canonical();
            network_of(peer).is_none() || self.proxies.iter().any(|net| net.contains(&peer))
        })
    }
}

/// The client's network, as the limits count it: an IPv4 address, or an IPv6 address's
/// /64 (one household or one machine is given a /64, and could walk its addresses).
/// `None` when it is not known, or not public.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientNetwork(pub Option<String>);

/// The network of every request whose trusted header holds no address: they share one
/// limit rather than escape it.
const UNREADABLE: &str = "unreadable";

impl ClientNetwork {
    /// The network of a client at `address`.
    pub fn of(address: IpAddr) -> ClientNetwork {
        ClientNetwork(network_of(address))
    }

    /// The wider network an IPv6 client's /64 lies in: its /48, a site's, for looser
    /// limits (a site may walk its 65,536 /64s). None for IPv4.
    pub fn wider(&self) -> Option<String> {
        let prefix = self.0.as_deref()?.strip_suffix("::/64")?;
        let segments: Vec<&str> = prefix.split(':').take(3).collect();
        Some(format!("{}::/48", segments.join(":")))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientNetwork {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|peer| peer.0.ip());
        let given = parts
            .extensions
            .get::<AddressHeader>()
            .filter(|header| header.written_by_proxy(peer))
            .and_then(|header| parts.headers.get_all(&header.name).iter().next_back());
        Ok(match given {
            // Without the header (or from a peer that is not the proxy) the request did
            // not come through the proxy.
            None => peer.map_or(ClientNetwork(None), ClientNetwork::of),
            Some(value) => match last_address(value.as_bytes()) {
                Some(address) => ClientNetwork::of(address),
                None => ClientNetwork(Some(UNREADABLE.to_string())),
            },
        })
    }
}

/// The last address of a header's value (`client, proxy1, proxy2`): the one written by
/// the proxy in front of the server. Whatever bytes a client put before it are not read.
fn last_address(value: &[u8]) -> Option<IpAddr> {
    let last = value.rsplit(|&b| b == b',').next()?;
    let last = std::str::from_utf8(last).ok()?.trim();
    // "1.2.3.4:5678", "[2001:db8::1]:5678" and "[2001:db8::1]", as some proxies write them.
    last.parse()
        .ok()
        .or_else(|| last.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| last.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
}

fn network_of(address: IpAddr) -> Option<String> {
    match address.to_canonical() {
        IpAddr::V4(v4) => is_public_v4(v4).then(|| v4.to_string()),
        IpAddr::V6(v6) => is_public_v6(v6).then(|| {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }),
    }
}

fn is_public_v4(address: Ipv4Addr) -> bool {
    let [a, b, ..] = address.octets();
    let shared = a == 100 && (64..128).contains(&b);
    !(address.is_loopback()
        || address.is_unspecified()
        || address.is_private()
        || address.is_link_local()
        || shared)
}

fn is_public_v6(address: Ipv6Addr) -> bool {
    !(address.is_loopback()
        || address.is_unspecified()
        || address.is_unique_local()
        || address.is_unicast_link_local())
}

/// Study places (analysis boards, evaluations) one client's network may hold at once,
/// on one server, of its `places`: half of them, and two at least. A client that opens
/// many analysis boards waits for its own turns, so that it cannot keep every place
/// from the others.
pub fn studies_per_client(places: usize) -> usize {
    (places / 2).max(2)
}

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
        // The semaphore is never closed, so the turn always comes.
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
    use axum::http::{HeaderValue, Request};
    use std::time::Duration;

    /// The network of a request from `peer` with `headers`, `trusted` the header named.
    async fn network(
        peer: &str,
        headers: &[(&str, &[u8])],
        trusted: Option<&'static str>,
    ) -> ClientNetwork {
        let mut request = Request::builder().uri("/");
        for &(name, value) in headers {
            request = request.header(name, HeaderValue::from_bytes(value).unwrap());
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        parts
            .extensions
            .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
        if let Some(trusted) = trusted {
            parts.extensions.insert(AddressHeader {
                name: HeaderName::from_static(trusted),
                proxies: Arc::from(["198.51.100.0/24".parse::<IpNet>().unwrap()]),
            });
        }
        let Ok(network) = ClientNetwork::from_request_parts(&mut parts, &()).await;
        network
    }

    fn known(network: &str) -> ClientNetwork {
        ClientNetwork(Some(network.to_string()))
    }

    const PROXY: &str = "127.0.0.1:4000";
    const FORWARDED: Option<&str> = Some("x-forwarded-for");

    #[tokio::test]
    async fn the_peer_is_the_client_unless_a_proxy_is_trusted() {
        let client = known("203.0.113.7");
        assert_eq!(network("203.0.113.7:4000", &[], None).await, client);
        // A header nobody was told to trust is the client's own word: not read.
        let forged: &[(&str, &[u8])] = &[("x-forwarded-for", b"198.51.100.1")];
        assert_eq!(network("203.0.113.7:4000", forged, None).await, client);
        assert_eq!(
            network(PROXY, forged, FORWARDED).await,
            known("198.51.100.1")
        );
        // What a client wrote before the proxy's own address is passed over, whether in
        // the same line or in a line of its own.
        let chain: &[(&str, &[u8])] = &[("x-forwarded-for", b"10.9.9.9, 198.51.100.1 , 192.0.2.4")];
        assert_eq!(network(PROXY, chain, FORWARDED).await, known("192.0.2.4"));
        let lines: &[(&str, &[u8])] = &[
            ("x-forwarded-for", b"198.51.100.1"),
            ("x-forwarded-for", b"192.0.2.4"),
        ];
        assert_eq!(network(PROXY, lines, FORWARDED).await, known("192.0.2.4"));
        let unreadable_first: &[(&str, &[u8])] = &[("x-forwarded-for", b"\xff\xfe, 192.0.2.4")];
        assert_eq!(
            network(PROXY, unreadable_first, FORWARDED).await,
            known("192.0.2.4")
        );
        for written in [&b"[2001:db8::1]:443"[..], b"[2001:db8::1]", b"2001:db8::1"] {
            let header: &[(&str, &[u8])] = &[("x-real-ip", written)];
            assert_eq!(
                network(PROXY, header, Some("x-real-ip")).await,
                known("2001:db8:0:0::/64")
            );
        }
        // No header: not through the proxy (this machine itself): not counted.
        assert_eq!(network(PROXY, &[], FORWARDED).await, ClientNetwork(None));
        // A header with no address: one client for all such, not none.
        let junk: &[(&str, &[u8])] = &[("x-forwarded-for", b"1.2.3.4, not an address")];
        assert_eq!(network(PROXY, junk, FORWARDED).await, known(UNREADABLE));
    }

    #[tokio::test]
    async fn the_header_is_read_only_from_a_peer_that_may_be_the_proxy() {
        let forged: &[(&str, &[u8])] = &[("x-real-ip", b"192.0.2.4")];
        let named = Some("x-real-ip");
        // A client reaching the server directly writes what it likes: its peer counts.
        for direct in ["203.0.113.7:4000", "[2001:db8::1]:4000"] {
            let peer: SocketAddr = direct.parse().unwrap();
            assert_eq!(
                network(direct, forged, named).await,
                ClientNetwork::of(peer.ip()),
                "{direct}"
            );
        }
        // The proxy on this machine, on a private network, or in a public network named
        // as the proxies' (198.51.100.0/24 here), as IPv4 or as IPv4 written in IPv6.
        for proxy in [
            PROXY,
            "[::1]:4000",
            "10.0.0.5:4000",
            "[fd00::5]:4000",
            "198.51.100.9:4000",
            "[::ffff:198.51.100.9]:4000",
        ] {
            assert_eq!(
                network(proxy, forged, named).await,
                known("192.0.2.4"),
                "{proxy}"
            );
        }
        assert_eq!(
            network("198.51.101.9:4000", forged, named).await,
            known("198.51.101.9")
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let a = network_of("2001:db8:aa:bb:1:2:3:4".parse().unwrap());
        let b = network_of("2001:db8:aa:bb:ffff::9".parse().unwrap());
        assert_eq!(a.as_deref(), Some("2001:db8:aa:bb::/64"));
        assert_eq!(a, b);
        assert_ne!(a, network_of("2001:db8:aa:bc::1".parse().unwrap()));
        let client = ClientNetwork(a);
        assert_eq!(client.wider().as_deref(), Some("2001:db8:aa::/48"));
        assert_eq!(known("203.0.113.7").wider(), None);
        assert_eq!(known(UNREADABLE).wider(), None);
        // An IPv4 address written as IPv6 is the IPv4 address.
        assert_eq!(
            network_of("::ffff:203.0.113.7".parse().unwrap()).as_deref(),
            Some("203.0.113.7")
        );
    }

    #[test]
    fn addresses_that_are_not_public_are_not_counted() {
        for private in [
            "0.0.0.0",
            "127.0.0.1",
            "10.1.2.3",
            "172.17.0.1",
            "192.168.1.20",
            "169.254.0.9",
            "100.64.0.1",
            "100.127.255.1",
            "::",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:10.0.0.1",
        ] {
            assert_eq!(network_of(private.parse().unwrap()), None, "{private}");
        }
        for public in [
            "100.63.0.1",
            "100.128.0.1",
            "172.32.0.1",
            "8.8.8.8",
            "2a00::1",
        ] {
            assert!(network_of(public.parse().unwrap()).is_some(), "{public}");
        }
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
