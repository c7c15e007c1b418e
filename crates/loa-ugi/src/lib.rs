//! The engine protocol of Lines of Action: UGI, the dialect of UCI that board games other
//! than chess use (`ugi`/`ugiok`, `p1time`/`p2time`), with UCI's names accepted too.
//! docs/protocol.md describes every command.
//!
//! Both sides of the protocol use the same types: a [`Command`] is what a GUI or a match
//! runner sends, a [`Response`] what an engine answers, each parsed from a line and
//! printed back to one. [`Session`] is the engine's side, over any reader and writer.
//!
//! ```
//! use loa_ugi::{Command, Go};
//! use std::time::Duration;
//!
//! let go: Command = "go p1time 1000 p2time 900 depth 6".parse().unwrap();
//! let Command::Go(Go { time, depth, .. }) = &go else { unreachable!() };
//! assert_eq!((time[0], *depth), (Some(Duration::from_millis(1000)), Some(6)));
//! assert_eq!(go.to_string().parse::<Command>().unwrap(), go);
//! ```

mod command;
mod error;
mod go;
mod line;
mod options;
mod response;
mod session;

pub use command::{Command, Query, Start};
pub use error::ProtocolError;
pub use go::{Dialect, Go, MAX_CLOCK};
pub use line::{read_line, skip_line, LineRead, MAX_LINE};
pub use options::{EngineOption, OptionDecl, OptionKind};
pub use response::{InfoLine, Response};
pub use session::Session;
