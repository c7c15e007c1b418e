//! `loa engine`: the engine protocol (see docs/protocol.md).

use anyhow::Result;

pub fn run() -> Result<()> {
    anyhow::bail!("the engine protocol is not built yet")
}
