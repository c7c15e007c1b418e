use anyhow::Result;

#[derive(clap::Args)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> Result<()> {
    anyhow::bail!("not built yet")
}
