use anyhow::Result;

#[derive(clap::Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> Result<()> {
    anyhow::bail!("not built yet")
}
