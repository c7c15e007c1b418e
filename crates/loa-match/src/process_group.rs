//! Each engine runs in a process group of its own, so that ending an engine ends whatever
//! it started too (the engine behind a wrapper script, helper processes), and an
//! interrupted match (Ctrl-C) ends every engine it started. `killpg(2)`, which the
//! standard library lacks, comes from `nix`.

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
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
    kill_group(pid);
}

/// A group that is gone already gives ESRCH: nothing left to end.
fn kill_group(pid: i32) {
    let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
}

/// Kills every engine group started and not yet ended.
pub fn kill_all() {
    let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner).clone();
    for pid in live {
        kill_group(pid);
    }
}

/// On Ctrl-C (or SIGTERM) every engine group is killed before the match ends.
pub fn end_engines_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        kill_all();
        eprintln!("interrupted: the engines are stopped");
        std::process::exit(130);
    });
}
