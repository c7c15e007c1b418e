//! The keys of the positions on the line being searched, the game's history first: the
//! solver asks of every child whether it repeats one of them. A count of the keys by
//! their low bits answers "no" at once for nearly every child, and only a key whose
//! count is not zero is looked for along the line.

/// Counters, a power of two.
const FILTER: usize = 1 << 12;

#[derive(Clone)]
pub(super) struct Line {
    keys: Vec<u64>,
    /// How many keys on the line have each value of their low bits.
    counts: Box<[u32; FILTER]>,
}

impl Line {
    pub fn new(keys: &[u64]) -> Line {
        let mut line = Line {
            keys: Vec::with_capacity(keys.len() + 256),
            counts: Box::new([0; FILTER]),
        };
        keys.iter().for_each(|&key| line.push(key));
        line
    }

    /// Makes the line `keys`, in time that follows the two lines' lengths.
    pub fn reset(&mut self, keys: &[u64]) {
        while !self.keys.is_empty() {
            self.pop();
        }
        keys.iter().for_each(|&key| self.push(key));
    }

    #[inline]
    fn slot(key: u64) -> usize {
        key as usize & (FILTER - 1)
    }

    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.counts[Line::slot(key)] += 1;
    }

    #[inline]
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.counts[Line::slot(key)] -= 1;
        }
    }

    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.counts[Line::slot(key)] != 0 && self.keys.contains(&key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_until_popped() {
        // 1 and 1 + FILTER share a counter; 2 has one of its own.
        let shared = 1 + FILTER as u64;
        let mut line = Line::new(&[1, 2]);
        assert!(line.contains(1) && line.contains(2));
        assert!(!line.contains(shared) && !line.contains(3));
        line.push(shared);
        assert!(line.contains(shared) && line.contains(1));
        line.pop();
        assert!(!line.contains(shared) && line.contains(1));
        line.pop();
        line.pop();
        assert!(!line.contains(1) && !line.contains(2));
        // Popping an empty line changes nothing.
        line.pop();
        assert!(!line.contains(1));
        line.push(7);
        line.reset(&[shared, 9]);
        assert!(line.contains(shared) && line.contains(9) && !line.contains(7));
        assert!(!line.contains(1));
    }
}
