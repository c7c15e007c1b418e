//! Certificates: arbitrary bytes as a certificate, and a valid certificate's header with
//! arbitrary entries. Reading never panics or hangs: the walk ends with a verdict, and
//! its memory follows the entries read (each entry read adds at most the positions of
//! one of the loser's turns).

#![no_main]

use libfuzzer_sys::fuzz_target;
use loa_core::certificate::verify_certificate;

/// A header of a 6x6 position Black wins in three moves, so that arbitrary entries walk a
/// real tree.
const HEADER: &str = "loa-certificate 1\nvariant standard\nrules draw\n\
position 3b2/6/1bw1b1/5b/ww4/3w2 b\nwinner black\nentries 2\n";

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let bytes: Vec<u8> = if choice % 2 == 0 {
        rest.to_vec()
    } else {
        let mut bytes = HEADER.as_bytes().to_vec();
        bytes.extend_from_slice(rest);
        bytes
    };
    match verify_certificate(&mut &bytes[..], None, &mut |_, _| {}) {
        Ok((_, summary)) => {
            let _ = summary.to_string();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
