//! Each engine runs in a process group of its own, so that ending an engine ends whatever
//! it started too (the engine behind a wrapper script, helper processes), and an
//! interrupted match (Ctrl-C) ends every engine it started. The one `unsafe` of the
//! project is here: `kill(2)` on a process group, which the standard library lacks.
#![allow(unsafe_code)]

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// The process groups of the engines running now.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Makes the process that `command` starts lead a new process group.
pub fn isolate(command: &mut Command) {
    command.process_group(0);
}

/// Notes a started engine, so that an interrupt can end it.
pub fn register(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        LIVE.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(pid);
    }
}

/// Kills the engine's whole process group and forgets it.
pub fn kill(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    LIVE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|&p| p != pid);
    // SAFETY: kill(2) takes plain integers; a group that is gone gives ESRCH, ignored.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// On Ctrl-C (or SIGTERM) every engine group is killed before the match ends.
pub fn end_engines_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner).clone();
        for pid in live {
            // SAFETY: as in `kill`.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        eprintln!("interrupted: the engines are stopped");
        std::process::exit(130);
    });
}
