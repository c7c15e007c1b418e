//! The solver's transposition table: proof and disproof numbers by position key, in
//! buckets of three that fill one cache line each (a probe costs one memory access); a
//! new entry replaces the one of its bucket that took the least work.
//!
//! The table is shared by the solver's threads without locks. An entry is two words,
//! the numbers and the key mixed with them; a read whose words do not agree (another
//! thread was writing) is a miss, so a torn entry is never taken for a proof.

use bytemuck::Zeroable;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// A number meaning "infinite": proved, or disproved.
pub const INF: u32 = u32::MAX / 4;

/// Entries in a bucket.
pub const WAYS: usize = 3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    /// Nodes searched below this one, for replacement.
    pub work: u32,
}

/// One cache line: three entries.
#[derive(Debug, Default, Zeroable)]
#[repr(C, align(64))]
pub struct Bucket {
    /// The key mixed with the numbers (key ^ numbers).
    checks: [AtomicU64; WAYS],
    /// The proof number in the high half, the disproof number in the low; 0 is empty.
    numbers: [AtomicU64; WAYS],
    work: [AtomicU32; WAYS],
}

impl Bucket {
    /// The entry of `way`, if its words agree and it is not empty.
    pub fn entry(&self, way: usize) -> Option<Entry> {
        let numbers = self.numbers[way].load(Relaxed);
        let key = self.checks[way].load(Relaxed) ^ numbers;
        (numbers != 0).then(|| Entry {
            key,
            pn: (numbers >> 32) as u32,
            dn: numbers as u32,
            work: self.work[way].load(Relaxed),
        })
    }

    pub fn set(&self, way: usize, entry: Entry) {
        let numbers = (u64::from(entry.pn) << 32) | u64::from(entry.dn);
        self.numbers[way].store(numbers, Relaxed);
        self.checks[way].store(entry.key ^ numbers, Relaxed);
        self.work[way].store(entry.work, Relaxed);
    }

    fn empty(&self, way: usize) {
        self.numbers[way].store(0, Relaxed);
        self.checks[way].store(0, Relaxed);
        self.work[way].store(0, Relaxed);
    }
}

pub struct Table {
    buckets: Box<[Bucket]>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` (a power of two of buckets, at most that size);
    /// an error when the memory cannot be had.
    pub fn new(megabytes: usize) -> std::io::Result<Table> {
        let bytes = megabytes
            .max(1)
            .checked_mul(1 << 20)
            .ok_or_else(|| std::io::Error::other("the table size is too large"))?;
        let wanted = bytes / size_of::<Bucket>();
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Ok(Table {
            buckets: zeroed(count)?,
            mask: count - 1,
        })
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..WAYS)
            .filter_map(|way| bucket.entry(way))
            .find(|e| e.key == key)
    }

    pub fn put(&self, entry: Entry) {
        let bucket = self.bucket(entry.key);
        let held = |way: usize| bucket.entry(way);
        let way = (0..WAYS)
            .find(|&way| held(way).is_some_and(|e| e.key == entry.key))
            .or_else(|| (0..WAYS).min_by_key(|&way| held(way).map_or(0, |e| e.work)))
            .unwrap_or(0);
        bucket.set(way, entry);
    }

    pub fn buckets(&self) -> &[Bucket] {
        &self.buckets
    }

    /// Drops what is known of `key`.
    pub fn forget(&self, key: u64) {
        let bucket = self.bucket(key);
        for way in 0..WAYS {
            if bucket.entry(way).is_some_and(|e| e.key == key) {
                bucket.empty(way);
            }
        }
    }

    /// Empties the table: fresh zeroed memory (the system gives it zeroed as it is
    /// touched, so this takes no time), or every entry emptied if none can be had.
    pub fn clear(&mut self) {
        match zeroed(self.buckets.len()) {
            Ok(fresh) => self.buckets = fresh,
            Err(_) => {
                for bucket in self.buckets.iter() {
                    (0..WAYS).for_each(|way| bucket.empty(way));
                }
            }
        }
    }
}

fn zeroed(count: usize) -> std::io::Result<Box<[Bucket]>> {
    bytemuck::allocation::try_zeroed_slice_box(count)
        .map_err(|()| std::io::Error::other("not enough memory for the table"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(size_of::<Bucket>(), 64);
        assert_eq!(align_of::<Bucket>(), 64);
    }

    #[test]
    fn the_table_is_a_power_of_two_of_buckets_within_the_size() {
        assert_eq!(Table::new(1).unwrap().buckets().len(), 16_384);
        assert_eq!(Table::new(3).unwrap().buckets().len(), 32_768);
    }

    #[test]
    fn an_entry_is_found_replaced_and_forgotten() {
        let table = Table::new(1).unwrap();
        let entry = |key, work| Entry {
            key,
            pn: 3,
            dn: 4,
            work,
        };
        // Four keys of one bucket: the fourth replaces the one that took the least work.
        let stride = table.buckets().len() as u64;
        for (i, work) in [5, 1, 9].into_iter().enumerate() {
            table.put(entry(7 + i as u64 * stride, work));
        }
        table.put(entry(7 + 3 * stride, 2));
        assert_eq!(table.get(7), Some(entry(7, 5)));
        assert_eq!(table.get(7 + stride), None);
        assert_eq!(table.get(7 + 3 * stride), Some(entry(7 + 3 * stride, 2)));
        // The same key is updated in place.
        table.put(entry(7, 6));
        assert_eq!(table.get(7), Some(entry(7, 6)));
        table.forget(7);
        assert_eq!(table.get(7), None);
        assert_eq!(table.get(7 + 2 * stride), Some(entry(7 + 2 * stride, 9)));
    }

    #[test]
    fn an_entry_whose_words_disagree_is_a_miss() {
        let table = Table::new(1).unwrap();
        let proved = Entry {
            key: 42,
            pn: 0,
            dn: INF,
            work: 1,
        };
        table.put(proved);
        assert_eq!(table.get(42), Some(proved));
        // Another thread's numbers written over, its key not yet: the read misses.
        table.buckets()[42].numbers[0].store(5 << 32 | 6, Relaxed);
        assert_eq!(table.get(42), None);
    }
}
