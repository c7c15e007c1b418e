//! The solver's transposition table: proof and disproof numbers by position key, in
//! buckets of two; a new entry replaces the one of its bucket that took less work.

/// A number meaning "infinite": proved, or disproved.
pub const INF: u32 = u32::MAX / 4;

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    /// Nodes searched below this one, for replacement.
    pub work: u32,
}

pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes`.
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / size_of::<Entry>();
        let buckets = (wanted / 2).next_power_of_two().max(2) / 2;
        Table {
            entries: vec![Entry::default(); buckets * 2],
            mask: buckets - 1,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key && (e.pn != 0 || e.dn != 0))
            .copied()
    }

    pub fn put(&mut self, entry: Entry) {
        let b = self.bucket(entry.key);
        let slot = if self.entries[b].key == entry.key {
            b
        } else if self.entries[b + 1].key == entry.key {
            b + 1
        } else if self.entries[b].work <= self.entries[b + 1].work {
            b
        } else {
            b + 1
        };
        self.entries[slot] = entry;
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
    }

    /// Drops what is known of `key`.
    pub fn forget(&mut self, key: u64) {
        let b = self.bucket(key);
        for entry in &mut self.entries[b..b + 2] {
            if entry.key == key {
                *entry = Entry::default();
            }
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}
