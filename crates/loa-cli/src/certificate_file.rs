//! Certificate files (`loa solve --certificate`, `loa verify-proof`): a certificate
//! compressed with gzip, so that `gunzip -c` shows its header; a certificate not
//! compressed is read too.

use anyhow::{Context, Result};
use flate2::bufread::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use indicatif::ProgressBar;
use loa_core::certificate::{verify_certificate, write_certificate, CertificateSummary, Header};
use loa_core::proof::Proof;
use loa_core::RuleSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether the file at `path` is a certificate (rather than a proof's text).
pub fn is_certificate(path: &Path) -> Result<bool> {
    let mut input = BufReader::new(open(path)?);
    let start = input
        .fill_buf()
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(start.starts_with(&GZIP_MAGIC) || start.starts_with(b"loa-certificate"))
}

/// Writes `proof` as a certificate to `path` and reads it back to check it.
pub fn write(proof: &Proof, path: &Path) -> Result<CertificateSummary> {
    let shown = path.display();
    let file = File::create(path).with_context(|| format!("cannot write {shown}"))?;
    let mut out = GzEncoder::new(BufWriter::new(file), Compression::best());
    let written = write_certificate(proof, &mut out)
        .and_then(|summary| Ok(out.finish()?.flush().map(|()| summary)?))
        .with_context(|| format!("cannot write the certificate to {shown}"))?;
    let (_, checked) = verify(path, None, &ProgressBar::hidden())?;
    anyhow::ensure!(
        checked == written,
        "the certificate written to {shown} reads back as {checked}, not {written}"
    );
    Ok(written)
}

/// Checks the certificate at `path` (under `rules` instead of its own, if given),
/// showing the entries read on `bar`.
pub fn verify(
    path: &Path,
    rules: Option<RuleSet>,
    bar: &ProgressBar,
) -> Result<(Header, CertificateSummary)> {
    let mut input = BufReader::new(open(path)?);
    let compressed = input.fill_buf()?.starts_with(&GZIP_MAGIC);
    let mut progress = |entries: u64, count: u64| {
        bar.set_length(count);
        bar.set_position(entries);
    };
    let result = if compressed {
        let mut input = BufReader::new(MultiGzDecoder::new(input));
        verify_certificate(&mut input, rules, &mut progress)
    } else {
        verify_certificate(&mut input, rules, &mut progress)
    };
    result.with_context(|| format!("{} does not prove a win", path.display()))
}

fn open(path: &Path) -> Result<File> {
    File::open(path).with_context(|| format!("cannot read {}", path.display()))
}
