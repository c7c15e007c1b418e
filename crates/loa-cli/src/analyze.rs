use anyhow::Result;

#[derive(clap::Args)]
pub struct AnalyzeArgs {}

pub fn run(_args: AnalyzeArgs) -> Result<()> {
    anyhow::bail!("not built yet")
}
