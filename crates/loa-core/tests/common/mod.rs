//! What the property tests of the rules share: random edits of valid texts, to reach the
//! parsers' error paths from inputs close to valid ones.

use proptest::prelude::*;

/// One edit: its kind, where (modulo the length), and the character it uses.
pub type Edit = (u8, usize, char);

/// Random edits of a text: insert, delete, replace or duplicate characters.
pub fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(kind, at, ch) in edits {
        let i = if chars.is_empty() {
            0
        } else {
            at % chars.len()
        };
        match kind % 4 {
            0 => chars.insert(i, ch),
            1 if !chars.is_empty() => {
                chars.remove(i);
            }
            2 if !chars.is_empty() => chars[i] = ch,
            3 if !chars.is_empty() => {
                let c = chars[i];
                chars.insert(i, c);
            }
            _ => chars.push(ch),
        }
    }
    chars.into_iter().collect()
}

/// One to five edits, mostly with characters of `alphabet`, sometimes any character.
pub fn text_edits(alphabet: &str) -> impl Strategy<Value = Vec<Edit>> {
    let interesting = prop::sample::select(alphabet.chars().collect::<Vec<_>>());
    prop::collection::vec(
        (
            any::<u8>(),
            any::<usize>(),
            prop_oneof![3 => interesting, 1 => any::<char>()],
        ),
        1..6,
    )
}
