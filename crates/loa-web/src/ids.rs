//! Unguessable names: a game's id (the key of a game two people play at one board) and
//! each seat's token in an online game.

/// 20 characters of a 32-letter alphabet: 100 bits from the operating system's generator.
const LEN: usize = 20;
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// A new random name.
pub fn random_name() -> String {
    let mut bytes = [0u8; LEN];
    getrandom::fill(&mut bytes).expect("the operating system's random generator works");
    bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b % 32)]))
        .collect()
}

/// Whether `text` could be a name made by [`random_name`]: checked before it reaches the
/// database or a message.
pub fn is_well_formed(text: &str) -> bool {
    text.len() == LEN && text.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_well_formed_and_differ() {
        let a = random_name();
        let b = random_name();
        assert!(is_well_formed(&a) && is_well_formed(&b));
        assert_ne!(a, b);
        assert!(!is_well_formed("short"));
        assert!(!is_well_formed("ABCDEFGHJKMNPQRSTUVW"));
        assert!(!is_well_formed(&format!("{a}x")));
    }
}
