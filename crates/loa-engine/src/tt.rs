//! The transposition table: one entry per slot, key checked by xor so entries written by
//! several threads at once are detected as torn and ignored.

use loa_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least this (a fail high).
    Lower,
    /// The score is at most this (a fail low).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

// The layout of an entry in 64 bits.
const SCORE_SHIFT: u32 = 24;
const DEPTH_SHIFT: u32 = 40;
const BOUND_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 56;

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        // A move takes 21 bits; 0 is no move (from == to is never a move).
        let mv = u64::from(self.mv.map_or(0, |m| m.to_bits()));
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        mv | u64::from(self.score as i16 as u16) << SCORE_SHIFT
            | u64::from(self.depth) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(generation) << GENERATION_SHIFT
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> BOUND_SHIFT) & 0xff {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_bits((data & ((1 << SCORE_SHIFT) - 1)) as u32),
            score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
            depth: (data >> DEPTH_SHIFT) as u8,
            bound,
        })
    }
}

#[derive(bytemuck::Zeroable)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one slot).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes * 1024 * 1024 / size_of::<Slot>()).max(1);
        let count = count.next_power_of_two() >> usize::from(!count.is_power_of_two());
        // Zeroed by the system as pages are first touched, in huge pages where it can.
        let slots = bytemuck::allocation::zeroed_slice_box(count);
        crate::memory::advise_huge_pages(&slots);
        TranspositionTable {
            slots,
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let old = slot.data.load(Ordering::Relaxed);
        let same = slot.check.load(Ordering::Relaxed) ^ old == key;
        let old_generation = (old >> GENERATION_SHIFT) as u8;
        let old_depth = (old >> DEPTH_SHIFT) as u8;
        // Keep a deeper entry of this search for another position.
        if !same && old_generation == self.generation && old_depth > entry.depth + 2 {
            return;
        }
        let mut entry = entry;
        if same && entry.mv.is_none() {
            entry.mv = Entry::unpack(old).and_then(|e| e.mv);
        }
        let data = entry.pack(self.generation);
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used in this search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && (d >> GENERATION_SHIFT) as u8 == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loa_core::Position;

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        let mv = Position::startpos().legal_moves()[3];
        let entry = Entry {
            mv: Some(mv),
            score: -29_990,
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234, entry);
        assert_eq!(tt.probe(0xdead_beef_1234), Some(entry));
        assert_eq!(tt.probe(0xdead_beef_1235), None);
    }

    #[test]
    fn size_is_a_power_of_two() {
        let tt = TranspositionTable::new(3);
        assert!(tt.slots.len().is_power_of_two());
        assert!(tt.slots.len() * 16 <= 3 << 20);
    }
}
