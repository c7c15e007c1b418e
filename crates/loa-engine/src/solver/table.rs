//! The solver's transposition table: proof and disproof numbers by position key, in
//! buckets of three that fill one cache line each (a probe costs one memory access); a
//! new entry replaces the one of its bucket that took the least work. The table lives in
//! an anonymous mapping that asks for huge pages, so that a probe of a table of
//! gigabytes does not also miss the address translation cache.

use bytemuck::{Pod, Zeroable};
use memmap2::MmapMut;

/// A number meaning "infinite": proved, or disproved.
pub const INF: u32 = u32::MAX / 4;

/// Tables of this size or more ask for huge pages.
const HUGE_PAGES_FROM_MB: usize = 1024;

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

/// One cache line: the fields of three entries side by side.
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C, align(64))]
pub struct Bucket {
    keys: [u64; WAYS],
    pn: [u32; WAYS],
    dn: [u32; WAYS],
    work: [u32; WAYS],
    unused: u32,
}

impl Bucket {
    pub fn entry(&self, way: usize) -> Entry {
        Entry {
            key: self.keys[way],
            pn: self.pn[way],
            dn: self.dn[way],
            work: self.work[way],
        }
    }

    pub fn set(&mut self, way: usize, entry: Entry) {
        self.keys[way] = entry.key;
        self.pn[way] = entry.pn;
        self.dn[way] = entry.dn;
        self.work[way] = entry.work;
    }
}

pub struct Table {
    /// Zeroed buckets: an all-zero entry is empty.
    memory: MmapMut,
    mask: usize,
    /// Whether anything was written since the table was made or cleared.
    written: bool,
}

impl Table {
    /// A table of about `megabytes` (a power of two of buckets, at most that size).
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
        let memory = map(count * size_of::<Bucket>())?;
        Ok(Table {
            memory,
            mask: count - 1,
            written: false,
        })
    }

    fn bucket(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    pub fn get(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets()[self.bucket(key)];
        (0..WAYS)
            .find(|&way| bucket.keys[way] == key && (bucket.pn[way] != 0 || bucket.dn[way] != 0))
            .map(|way| bucket.entry(way))
    }

    pub fn put(&mut self, entry: Entry) {
        let index = self.bucket(entry.key);
        let bucket = &mut self.buckets_mut()[index];
        let way = (0..WAYS)
            .find(|&way| bucket.keys[way] == entry.key)
            .unwrap_or_else(|| (0..WAYS).min_by_key(|&way| bucket.work[way]).unwrap_or(0));
        bucket.set(way, entry);
    }

    pub fn buckets(&self) -> &[Bucket] {
        bytemuck::cast_slice(&self.memory)
    }

    pub fn buckets_mut(&mut self) -> &mut [Bucket] {
        self.written = true;
        bytemuck::cast_slice_mut(&mut self.memory)
    }

    /// Drops what is known of `key`.
    pub fn forget(&mut self, key: u64) {
        let index = self.bucket(key);
        let bucket = &mut self.buckets_mut()[index];
        for way in 0..WAYS {
            if bucket.keys[way] == key {
                bucket.set(way, Entry::default());
            }
        }
    }

    /// Empties the table: a fresh mapping (the kernel gives zeroed pages as they are
    /// touched, so this takes no time), or zeroes written over the old one if the
    /// memory cannot be had again. A table never written is left alone.
    pub fn clear(&mut self) {
        if self.written {
            match map(self.memory.len()) {
                Ok(fresh) => self.memory = fresh,
                Err(_) => self.memory.fill(0),
            }
            self.written = false;
        }
    }
}

/// Zeroed memory of `bytes`.
fn map(bytes: usize) -> std::io::Result<MmapMut> {
    let memory = MmapMut::map_anon(bytes)?;
    // Only a request: without huge pages the table works the same, more slowly. Small
    // tables do without: the kernel may stop a thread to gather a huge page, and the
    // solver beside a search must answer its stop at once.
    #[cfg(target_os = "linux")]
    if bytes >= HUGE_PAGES_FROM_MB << 20 {
        let _ = memory.advise(memmap2::Advice::HugePage);
    }
    Ok(memory)
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
        let mut table = Table::new(1).unwrap();
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
}
