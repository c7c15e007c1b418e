//! The solver's transposition table: proof and disproof numbers by position key, in
//! buckets of four entries that fill one cache line each (a probe costs one memory
//! access); a new entry takes an empty way of its bucket, or else the one that took the
//! least work. A result is not replaced by numbers of the same position, nor a disproof
//! by a proof (see [`Entry::outranks`]).
//!
//! The table is shared by the solver's threads without locks. An entry is two words:
//! the proof and disproof numbers, and the key's high 48 bits with the work below the
//! position, mixed with the numbers. A read whose words do not agree (another thread was
//! writing) is a miss, so a torn entry is never taken for a proof. (The key's low bits
//! choose the bucket: a table of 2^16 buckets or more checks all 64.)

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A number meaning "infinite": proved, or disproved. Numbers fit in 30 bits.
pub const INF: u32 = u32::MAX / 4;

/// Entries in a bucket.
pub const WAYS: usize = 4;

/// Words in a bucket: a cache line.
const WORDS: usize = 2 * WAYS;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    /// Nodes searched below this one, for replacement.
    pub work: u32,
}

impl Entry {
    /// Whether the entry is a proof or a disproof.
    pub fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether this entry stays against `newer` numbers of the same position: a
    /// disproof holds on every line (one resting on a repetition is never kept), so a
    /// proof that contradicts it rests on another line's; and numbers worked out before
    /// a result (by another thread, or from children's numbers read before) add nothing.
    fn outranks(&self, newer: &Entry) -> bool {
        (self.dn == 0 && newer.dn != 0) || (self.is_solved() && !newer.is_solved())
    }
}

/// The numbers word: the proof number in the high half, the disproof number in the
/// low; 0 is an empty entry (no position has both numbers 0).
fn numbers(entry: &Entry) -> u64 {
    (u64::from(entry.pn) << 32) | u64::from(entry.dn)
}

/// The work in 16 bits, in order: exact below 2^11, then 5 bits of exponent and the
/// next 11 bits.
fn work_code(work: u32) -> u64 {
    if work < 1 << 11 {
        u64::from(work)
    } else {
        let shift = 32 - work.leading_zeros() - 11;
        u64::from((shift << 11) | ((work >> shift) & 0x7ff))
    }
}

/// The least work of a code.
fn work_of(code: u64) -> u32 {
    let (shift, mantissa) = ((code >> 11) as u32, (code & 0x7ff) as u32);
    if shift == 0 {
        mantissa
    } else {
        (mantissa | 1 << 10) << shift
    }
}

/// The key's bits kept in an entry; the others are the bucket's index.
const KEY_BITS: u64 = !0xffff;
/// Buckets at least: the index gives all the key's bits an entry does not keep (4 MB).
const MIN_BUCKETS: usize = 1 << 16;

pub struct Table {
    /// Zeroed words; the buckets start at `first`, on a cache line.
    words: Box<[AtomicU64]>,
    first: usize,
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
        let wanted = bytes / (WORDS * 8);
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(MIN_BUCKETS);
        Table::with_buckets(count)
    }

    fn with_buckets(count: usize) -> std::io::Result<Table> {
        let words = zeroed(count * WORDS + WORDS)?;
        // Word-aligned memory, zeroed lazily by the system as it is touched; the buckets
        // begin at the first cache line in it.
        let first = (words.as_ptr() as usize).wrapping_neg() % 64 / 8;
        Ok(Table {
            words,
            first,
            mask: count - 1,
        })
    }

    /// The buckets in the table.
    pub fn len(&self) -> usize {
        self.mask + 1
    }

    /// The words of bucket `index`: the checks, then the numbers.
    fn bucket_at(&self, index: usize) -> &[AtomicU64] {
        let start = self.first + index * WORDS;
        &self.words[start..start + WORDS]
    }

    fn bucket(&self, key: u64) -> &[AtomicU64] {
        self.bucket_at(key as usize & self.mask)
    }

    /// The entry in `way` of bucket `index`, if its words agree and it is not empty.
    pub fn entry(&self, index: usize, way: usize) -> Option<Entry> {
        read(self.bucket_at(index), way, index as u64 & !KEY_BITS)
    }

    /// Starts loading the bucket of `key` into the cache, so that a `get` soon after
    /// does not wait for memory.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch only hints the cache; it reads nothing the program sees
            // and cannot fault (here, besides, the address is the bucket's own).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr().cast()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..WAYS)
            .filter_map(|way| read(bucket, way, key & !KEY_BITS))
            .find(|e| e.key == key)
    }

    pub fn put(&self, entry: Entry) {
        let bucket = self.bucket(entry.key);
        let low = entry.key & !KEY_BITS;
        // The entry's own slot, or else an empty one, or else the one that took the least
        // work, in one look at the bucket.
        let mut victim = (0, u64::MAX);
        for way in 0..WAYS {
            let held = read(bucket, way, low);
            if let Some(held) = held.filter(|e| e.key == entry.key) {
                if held.outranks(&entry) {
                    return;
                }
                victim.0 = way;
                break;
            }
            let cost = held.map_or(0, |e| u64::from(e.work) + 1);
            if cost < victim.1 {
                victim = (way, cost);
            }
        }
        write(bucket, victim.0, &entry);
    }

    /// Keeps a position's initial numbers where they displace no work: in an empty way,
    /// or else over another unsolved entry below which nothing was searched. A node
    /// expanded again then reads its unsearched children's numbers instead of working
    /// them out anew.
    pub fn put_initial(&self, entry: Entry) {
        let bucket = self.bucket(entry.key);
        let low = entry.key & !KEY_BITS;
        let mut free = None;
        for way in 0..WAYS {
            match read(bucket, way, low) {
                None => {
                    free = Some(way);
                    break;
                }
                Some(e) if free.is_none() && e.work == 0 && !e.is_solved() => {
                    free = Some(way);
                }
                Some(_) => {}
            }
        }
        if let Some(way) = free {
            write(bucket, way, &Entry { work: 0, ..entry });
        }
    }

    /// Drops what is known of `key`.
    pub fn forget(&self, key: u64) {
        let bucket = self.bucket(key);
        for way in 0..WAYS {
            if read(bucket, way, key & !KEY_BITS).is_some_and(|e| e.key == key) {
                bucket[WAYS + way].store(0, Relaxed);
                bucket[way].store(0, Relaxed);
            }
        }
    }

    /// Empties the table: fresh zeroed memory (the system zeroes it as it is touched,
    /// instead of a pass over all of it now), or every word zeroed if none can be had.
    pub fn clear(&mut self) {
        match Table::with_buckets(self.len()) {
            Ok(fresh) => *self = fresh,
            Err(_) => self.words.iter().for_each(|w| w.store(0, Relaxed)),
        }
    }
}

/// The entry in `way` of a bucket whose index gives the key's low bits.
fn read(bucket: &[AtomicU64], way: usize, low_bits: u64) -> Option<Entry> {
    let numbers = bucket[WAYS + way].load(Relaxed);
    let check = bucket[way].load(Relaxed) ^ numbers;
    (numbers != 0).then(|| Entry {
        key: (check & KEY_BITS) | low_bits,
        pn: (numbers >> 32) as u32,
        dn: numbers as u32,
        work: work_of(check & !KEY_BITS),
    })
}

fn write(bucket: &[AtomicU64], way: usize, entry: &Entry) {
    let numbers = numbers(entry);
    bucket[WAYS + way].store(numbers, Relaxed);
    bucket[way].store(
        ((entry.key & KEY_BITS) | work_code(entry.work)) ^ numbers,
        Relaxed,
    );
}

/// Zeroed words, through the allocator's zeroed path (for a large table: pages the
/// system zeroes when they are first touched, not a pass over all of it).
fn zeroed(count: usize) -> std::io::Result<Box<[AtomicU64]>> {
    let words = bytemuck::allocation::try_zeroed_slice_box(count)
        .map_err(|()| std::io::Error::other("not enough memory for the table"))?;
    crate::memory::advise_huge_pages(&words);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_start_on_a_cache_line() {
        let table = Table::new(8).unwrap();
        let address = table.bucket(5).as_ptr() as usize;
        assert_eq!(address % 64, 0);
        assert_eq!(table.len(), 131_072);
        // The least table, whose index holds the key's bits an entry does not.
        assert_eq!(Table::new(1).unwrap().len(), MIN_BUCKETS);
    }

    #[test]
    fn the_work_code_keeps_the_order() {
        let works = [
            0,
            1,
            2047,
            2048,
            2049,
            4095,
            4096,
            1 << 20,
            (1 << 20) + 999,
            u32::MAX,
        ];
        for pair in works.windows(2) {
            assert!(work_code(pair[0]) <= work_code(pair[1]), "{pair:?}");
        }
        for work in works {
            assert!(work_code(work) < 1 << 16);
            let least = work_of(work_code(work));
            assert!(
                least <= work && least >= work - work / 1024,
                "{work} {least}"
            );
        }
    }

    #[test]
    fn an_entry_is_found_replaced_and_forgotten() {
        let table = Table::new(4).unwrap();
        let entry = |key, work| Entry {
            key,
            pn: 3,
            dn: INF,
            work,
        };
        // Five keys of one bucket: the fifth replaces the one that took the least work.
        let stride = table.len() as u64;
        let key = |i: u64| 0xabcd_0000_0000_0007 + i * stride;
        for (i, work) in [50, 1, 900, 3000].into_iter().enumerate() {
            table.put(entry(key(i as u64), work));
        }
        table.put(entry(key(4), 20));
        assert_eq!(table.get(key(0)), Some(entry(key(0), 50)));
        assert_eq!(table.get(key(1)), None);
        assert_eq!(table.get(key(4)), Some(entry(key(4), 20)));
        // The same key is updated in place.
        table.put(entry(key(0), 60));
        assert_eq!(table.get(key(0)), Some(entry(key(0), 60)));
        table.forget(key(0));
        assert_eq!(table.get(key(0)), None);
        assert_eq!(table.get(key(2)), Some(entry(key(2), 900)));
        // What the checkpoint reads: the whole key back from the entry and its bucket.
        let index = key(2) as usize & (table.len() - 1);
        let found = (0..WAYS).filter_map(|way| table.entry(index, way));
        assert!(
            found.clone().any(|e| e == entry(key(2), 900)),
            "{:?}",
            found.collect::<Vec<_>>()
        );
    }

    #[test]
    fn initial_numbers_displace_no_work_and_no_result() {
        let table = Table::new(4).unwrap();
        let stride = table.len() as u64;
        let key = |i: u64| 0x1234_0000_0000_0003 + i * stride;
        let entry = |i, pn, work| Entry {
            key: key(i),
            pn,
            dn: 7,
            work,
        };
        // A searched entry, a proof found without search, an unsearched entry, an empty way.
        table.put(entry(0, 4, 1));
        table.put(entry(1, 0, 0));
        table.put(entry(2, 9, 0));
        table.put_initial(entry(3, 5, 0));
        assert_eq!(table.get(key(3)), Some(entry(3, 5, 0)));
        // With no empty way left, the unsearched entry's; the initial work is always 0.
        table.put_initial(entry(4, 6, 80));
        assert_eq!(table.get(key(4)), Some(entry(4, 6, 0)));
        assert_eq!(table.get(key(2)), None);
        // Nothing is left but work, a result and initial entries: the newcomer takes the
        // first initial entry's way.
        table.put_initial(entry(5, 8, 0));
        assert_eq!(table.get(key(0)), Some(entry(0, 4, 1)));
        assert_eq!(table.get(key(1)), Some(entry(1, 0, 0)));
        assert_eq!(table.get(key(5)), Some(entry(5, 8, 0)));
        assert_eq!(table.get(key(4)), None);
        assert_eq!(table.get(key(3)), Some(entry(3, 5, 0)));
        // A bucket of searched entries and results keeps them all.
        let other = |i: u64| key(i) + 1;
        let searched = |i, pn, dn, work| Entry {
            key: other(i),
            pn,
            dn,
            work,
        };
        for (i, pn, dn, work) in [(0, 3, 7, 2), (1, 0, INF, 0), (2, 4, 7, 1), (3, INF, 0, 0)] {
            table.put(searched(i, pn, dn, work));
        }
        table.put_initial(searched(4, 1, 1, 0));
        assert_eq!(table.get(other(4)), None);
        for i in 0..4 {
            assert!(table.get(other(i)).is_some(), "{i}");
        }
    }

    #[test]
    fn a_result_is_kept_against_numbers_of_the_same_position() {
        let table = Table::new(4).unwrap();
        let entry = |key, pn, dn, work| Entry { key, pn, dn, work };
        // Another thread's numbers from before the proof do not undo it.
        table.put(entry(7, 0, INF, 40));
        table.put(entry(7, 5, 9, 900));
        assert_eq!(table.get(7), Some(entry(7, 0, INF, 40)));
        // A disproof alike, and against a proof too (which rests on another line's).
        table.put(entry(8, INF, 0, 3));
        table.put(entry(8, 2, 2, 3));
        assert_eq!(table.get(8), Some(entry(8, INF, 0, 3)));
        table.put(entry(8, 0, INF, 4));
        assert_eq!(table.get(8), Some(entry(8, INF, 0, 3)));
        // A disproof replaces a proof (one that did not hold on a line is proved again);
        // numbers replace numbers.
        table.put(entry(7, INF, 0, 50));
        assert_eq!(table.get(7), Some(entry(7, INF, 0, 50)));
        table.put(entry(9, 3, 4, 1));
        table.put(entry(9, 6, 2, 2));
        assert_eq!(table.get(9), Some(entry(9, 6, 2, 2)));
    }

    #[test]
    fn an_entry_whose_words_disagree_is_a_miss() {
        let table = Table::new(4).unwrap();
        let proved = Entry {
            key: 42,
            pn: 0,
            dn: INF,
            work: 0,
        };
        table.put(proved);
        assert_eq!(table.get(42), Some(proved));
        // Another thread's numbers written over, its key not yet: the read misses.
        table.bucket(42)[WAYS].store(5 << 32 | 6, Relaxed);
        assert_eq!(table.get(42), None);
    }
}
