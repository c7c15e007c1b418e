//! `loa engine`: the engine protocol on standard input and output (docs/protocol.md).

/// Runs the protocol until `quit` or the end of the input.
pub fn run() -> anyhow::Result<()> {
    loa_ugi::Session::new(Box::new(std::io::stdout())).serve(std::io::stdin().lock());
    Ok(())
}
