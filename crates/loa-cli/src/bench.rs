use anyhow::Result;

#[derive(clap::Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Result<()> {
    anyhow::bail!("not built yet")
}
