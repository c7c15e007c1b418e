//! Protocol lines, both ways: whatever parses as a command or a response prints back to a
//! line that parses to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_ugi::{Command, Response};

fuzz_target!(|input: &[u8]| {
    let line = String::from_utf8_lossy(input);
    if let Ok(command) = line.parse::<Command>() {
        let printed = command.to_string();
        assert_eq!(printed.parse::<Command>().as_ref(), Ok(&command), "{printed}");
    }
    if let Ok(response) = line.parse::<Response>() {
        let printed = response.to_string();
        assert_eq!(printed.parse::<Response>().as_ref(), Ok(&response), "{printed}");
    }
});
