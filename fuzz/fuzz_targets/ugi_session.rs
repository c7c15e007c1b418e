//! A whole engine-protocol session over arbitrary input: every line gets an answer or an
//! error line, nothing panics, and every line written is whole UTF-8 of a sane length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|input: &[u8]| {
    let sink = Sink::default();
    loa_ugi::Session::with_hash(Box::new(sink.clone()), Some(1)).serve(input);
    let output = sink.0.lock().unwrap().clone();
    let text = String::from_utf8(output).expect("the output is UTF-8");
    for line in text.lines() {
        assert!(line.len() < 8_192, "a line of {} bytes", line.len());
    }
});
