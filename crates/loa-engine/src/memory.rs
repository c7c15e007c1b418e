//! Checking a table size against the memory there is, before it is made: the table is
//! filled when made, and a failed allocation would end the program.

/// The largest transposition table, in MiB.
pub const MAX_HASH_MB: usize = 65_536;

/// Why a table of the size asked for cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HashSizeError {
    #[error("a hash table of {0} MB is out of range: it must be from 1 to {MAX_HASH_MB} MB")]
    OutOfRange(usize),
    #[error("a hash table of {requested} MB is more than the memory available ({available} MB)")]
    NoMemory { requested: usize, available: u64 },
}

/// Checks that a table of `megabytes` MiB can be made once a table of `freed_mb` is freed.
pub fn check_hash_size(megabytes: usize, freed_mb: usize) -> Result<(), HashSizeError> {
    if !(1..=MAX_HASH_MB).contains(&megabytes) {
        return Err(HashSizeError::OutOfRange(megabytes));
    }
    match available_memory_mb() {
        Some(free) if megabytes as u64 > free + freed_mb as u64 => Err(HashSizeError::NoMemory {
            requested: megabytes,
            available: free + freed_mb as u64,
        }),
        _ => Ok(()),
    }
}

/// Memory the process may still use, in MiB: the smaller of the system's available
/// memory and the room left under a cgroup limit. `None` when neither can be read.
fn available_memory_mb() -> Option<u64> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb / 1024);
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
    };
    let cgroup = read("/sys/fs/cgroup/memory.max").map(|limit| {
        let used = read("/sys/fs/cgroup/memory.current").unwrap_or(0);
        limit.saturating_sub(used) / (1024 * 1024)
    });
    match (system, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Asks the system to back `memory` with huge pages where it can (Linux's transparent
/// huge pages, when they are on "madvise"): a table probed at random then misses the
/// address translation cache far less often. Call it before the memory is first touched.
/// Nothing happens elsewhere, or when the system declines.
// The one call into the system without a safe wrapper in our dependencies; advice about
// backing cannot change what the memory holds.
#[allow(unsafe_code)]
pub(crate) fn advise_huge_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = memory.as_ptr() as usize;
        let end = start + size_of_val(memory);
        let first = start.next_multiple_of(PAGE);
        if end > first {
            let length = (end - first) / PAGE * PAGE;
            // SAFETY: the range lies inside `memory`, which stays allocated; the advice
            // changes how pages are backed, never their contents.
            unsafe {
                libc::madvise(first as *mut libc::c_void, length, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_out_of_range_or_memory_are_refused() {
        assert_eq!(check_hash_size(16, 0), Ok(()));
        assert_eq!(check_hash_size(0, 0), Err(HashSizeError::OutOfRange(0)));
        assert_eq!(
            check_hash_size(MAX_HASH_MB + 1, 0),
            Err(HashSizeError::OutOfRange(MAX_HASH_MB + 1))
        );
        if let Some(free) = available_memory_mb() {
            if free < MAX_HASH_MB as u64 {
                let err = check_hash_size(free as usize + 1, 0).unwrap_err();
                assert!(err.to_string().contains("more than the memory"), "{err}");
            }
        }
    }
}
