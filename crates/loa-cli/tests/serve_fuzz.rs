//! Random requests to a real `loa serve`: JSON bodies built from the API's own field
//! names and values, half-broken JSON and plain bytes, to every endpoint. Whatever comes,
//! the answer is a 2xx or a 4xx with a JSON message, never a 5xx, and the server lives on.

mod common;

use common::server::Server;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const FIELDS: &[&str] = &[
    "black",
    "white",
    "variant",
    "rules",
    "board",
    "position",
    "moves",
    "record",
    "clock",
    "online",
    "move",
    "token",
    "ply",
    "side",
    "positions",
    "depth",
    "kind",
    "initial_s",
    "increment_s",
    "days",
    "engine",
    "level",
    "movetime_ms",
    "run",
];

const WORDS: &[&str] = &[
    "human",
    "engine",
    "standard",
    "parachute",
    "ambiloa",
    "neighbors",
    "fields-of-action",
    "scrambled-eggs",
    "draw",
    "mover-wins",
    "live",
    "correspondence",
    "black",
    "white",
    "b1-b3",
    "pass",
    "a6-c6@e5",
    "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b",
    "(;FF[4]GM[9];B[b1-b3])",
    "[Event \"x\"]\n\n1. b1-b3 *",
    "",
    "\u{0}",
    "💥",
];

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..10).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        proptest::sample::select(WORDS).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((proptest::sample::select(FIELDS), inner), 0..6).prop_map(
                |pairs| {
                    Value::Object(
                        pairs
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), v))
                            .collect::<Map<_, _>>(),
                    )
                }
            ),
        ]
    })
}

fn check(status: u16, body: &Value, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(status < 500, "{what}: {status} {body}");
    if status >= 400 {
        prop_assert!(body["error"].is_string(), "{what}: {status} {body}");
    }
    Ok(())
}

/// A server of its own and a game in it; the server ends with the test.
fn server() -> (Server, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("games.db"));
    let created = server.create(json!({"black": "human", "white": "human"}));
    let id = created["id"].as_str().unwrap().to_string();
    (server, id, dir)
}

fn run<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let config = ProptestConfig {
        cases: 300,
        ..ProptestConfig::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

#[test]
fn random_json_bodies_get_an_answer() {
    let (server, id, _dir) = server();
    run((0usize..10, value()), |(endpoint, body)| {
        let path = match endpoint {
            0 => "/api/games".to_string(),
            1 => format!("/api/games/{id}/moves"),
            2 => format!("/api/games/{id}/join"),
            3 => format!("/api/games/{id}/draw"),
            4 => format!("/api/games/{id}/takeback"),
            5 => format!("/api/games/{id}/draw/decline"),
            6 => "/api/position".to_string(),
            7 => "/api/records".to_string(),
            8 => "/api/evaluate".to_string(),
            _ => format!("/api/games/{id}/resign"),
        };
        let (status, answer) = server.call("POST", &path, Some(body.clone()));
        check(status, &answer, &format!("POST {path} {body}"))
    });
    assert_eq!(server.get(&format!("/api/games/{id}"))["id"], id.as_str());
}

#[test]
fn random_bytes_get_an_answer() {
    let (server, id, _dir) = server();
    let bytes = proptest::collection::vec(any::<u8>(), 0..200);
    run((bytes, 0usize..3), |(bytes, endpoint)| {
        let path = match endpoint {
            0 => "/api/games".to_string(),
            1 => format!("/api/games/{id}/moves"),
            _ => "/api/position".to_string(),
        };
        let result = ureq::post(&server.url(&path))
            .set("content-type", "application/json")
            .send_bytes(&bytes);
        let (status, text) = match result {
            Ok(r) => (r.status(), r.into_string().unwrap()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
            Err(e) => panic!("{e}"),
        };
        let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        check(status, &answer, &format!("POST {path} {bytes:?}"))
    });
}

#[test]
fn random_paths_and_queries_get_an_answer() {
    let (server, _id, _dir) = server();
    run("[a-z0-9/?=&._-]{0,40}", |tail| {
        let path = format!("/api/{tail}");
        let (status, answer) = server.call("GET", &path, None);
        prop_assert!(status < 500, "GET {path}: {status} {answer}");
        Ok(())
    });
}
