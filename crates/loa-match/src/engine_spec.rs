//! How an engine is described: `cmd=PATH name=NAME arg=ARG option.Hash=16 depth=4 ...`
//! (the words of `loa match --engine`), with settings shared by every engine (`--each`).

use super::time_control::{TimeControl, MAX_TIME};
use loa_core::excerpt;
use loa_engine::MAX_DEPTH;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Try `ugi` first, then `uci` if the engine does not answer `ugiok`.
    Auto,
    Ugi,
    Uci,
}

/// When an engine must move: any combination; the engine gets all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    pub tc: Option<TimeControl>,
    pub move_time: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl MoveLimits {
    pub fn is_empty(&self) -> bool {
        self.tc.is_none()
            && self.move_time.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }

    /// Each limit set here, or else the one in `fallback`.
    pub fn or(self, fallback: MoveLimits) -> MoveLimits {
        MoveLimits {
            tc: self.tc.or(fallback.tc),
            move_time: self.move_time.or(fallback.move_time),
            depth: self.depth.or(fallback.depth),
            nodes: self.nodes.or(fallback.nodes),
        }
    }
}

/// `tc=10+0.1 depth=4`, or `-` when there is no limit.
impl fmt::Display for MoveLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(time) = self.move_time {
            parts.push(format!("movetime={}", time.as_millis()));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if parts.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

/// Everything needed to start an engine and set it up for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// The working directory of the process.
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
    pub limits: MoveLimits,
}

/// The settings of one `--engine` (or `--each`) before they are combined.
#[derive(Clone, Debug, Default)]
struct Settings {
    name: Option<String>,
    cmd: Option<PathBuf>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    protocol: Option<Protocol>,
    options: Vec<(String, String)>,
    limits: MoveLimits,
}

/// The keys of an engine's description.
pub const ENGINE_KEYS: &str = "cmd, name, arg, dir, proto, option.NAME, tc, movetime, depth, nodes";

fn parse_settings(words: &[String], what: &str) -> Result<Settings, String> {
    let mut s = Settings::default();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "{what}: '{}' is not KEY=VALUE (keys: {ENGINE_KEYS})",
                excerpt(word)
            ));
        };
        let bad = |expected: &str| {
            format!(
                "{what}: {}='{}': expected {expected}",
                excerpt(key),
                excerpt(value)
            )
        };
        match key {
            "cmd" => s.cmd = Some(PathBuf::from(value)),
            "name" => s.name = Some(value.to_string()),
            "arg" => s.args.push(value.to_string()),
            "dir" => s.dir = Some(PathBuf::from(value)),
            "proto" | "protocol" => {
                s.protocol = Some(match value.to_ascii_lowercase().as_str() {
                    "auto" => Protocol::Auto,
                    "ugi" => Protocol::Ugi,
                    "uci" => Protocol::Uci,
                    _ => return Err(bad("ugi, uci or auto")),
                });
            }
            "tc" => s.limits.tc = Some(value.parse().map_err(|e| format!("{what}: {e}"))?),
            "movetime" | "st" => {
                let ms = whole(value, 1, MAX_TIME.as_millis() as u64)
                    .map_err(|e| format!("{what}: {key}: {e}"))?;
                s.limits.move_time = Some(Duration::from_millis(ms));
            }
            "depth" => {
                let depth = whole(value, 1, u64::from(MAX_DEPTH))
                    .map_err(|e| format!("{what}: {key}: {e}"))?;
                s.limits.depth = Some(depth as u32);
            }
            "nodes" => {
                s.limits.nodes =
                    Some(whole(value, 1, u64::MAX).map_err(|e| format!("{what}: {key}: {e}"))?);
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    s.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "{what}: unknown key '{}' (keys: {ENGINE_KEYS})",
                        excerpt(key)
                    ))
                }
            },
        }
    }
    Ok(s)
}

/// A whole number from `min` to `max`, or what is wrong with it.
fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{}' is not a whole number from {min} to {max}",
            excerpt(text)
        )),
    }
}

/// Builds the engines from their `--engine` settings, the `--each` settings and the
/// match-wide limits (an engine's own setting wins over `--each`, which wins over the
/// match-wide one). Names default to the command's file name, numbered when repeated.
pub fn build_specs(
    engines: &[Vec<String>],
    each: &[String],
    match_limits: MoveLimits,
) -> Result<Vec<EngineSpec>, String> {
    let shared = parse_settings(each, "--each")?;
    if shared.name.is_some() {
        return Err("--each: name= belongs to one engine".to_string());
    }
    let mut specs = Vec::new();
    let mut named = Vec::new();
    for (i, words) in engines.iter().enumerate() {
        let what = format!("--engine #{}", i + 1);
        let own = parse_settings(words, &what)?;
        let cmd = own
            .cmd
            .or_else(|| shared.cmd.clone())
            .ok_or_else(|| format!("{what}: cmd=PATH is missing"))?;
        let mut args = shared.args.clone();
        args.extend(own.args);
        let mut options = shared.options.clone();
        for (name, value) in own.options {
            options.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            options.push((name, value));
        }
        let limits = own.limits.or(shared.limits).or(match_limits);
        if limits.is_empty() {
            return Err(format!(
                "{what}: no limit for its moves: give --tc, --movetime, --depth or --nodes (or \
                 tc=, movetime=, depth=, nodes= for this engine)"
            ));
        }
        named.push(own.name.is_some());
        let name = own.name.unwrap_or_else(|| {
            cmd.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("engine{}", i + 1))
        });
        specs.push(EngineSpec {
            name,
            cmd,
            args,
            dir: own.dir.or_else(|| shared.dir.clone()),
            protocol: own.protocol.or(shared.protocol).unwrap_or(Protocol::Auto),
            options,
            limits,
        });
    }
    // Names must tell the engines apart: number the repeated default names.
    for i in 0..specs.len() {
        let clashes: Vec<usize> = (0..specs.len())
            .filter(|&j| specs[j].name == specs[i].name)
            .collect();
        if clashes.len() > 1 {
            if clashes.iter().filter(|&&j| named[j]).count() > 1 {
                return Err(format!(
                    "two engines are named '{}': give each its own name=",
                    specs[i].name
                ));
            }
            let base = specs[i].name.clone();
            for (k, &j) in clashes.iter().enumerate() {
                if !named[j] {
                    specs[j].name = format!("{base}#{}", k + 1);
                }
            }
        }
    }
    Ok(specs)
}

/// The keys of a bot's engine: those of a match's but `tc` (the game's clock decides).
pub const BOT_ENGINE_KEYS: &str = "cmd, name, arg, dir, proto, option.NAME, movetime, depth, nodes";

/// The engine of `loa bot` from its `--engine` words. Its limits (`movetime`, `depth`,
/// `nodes`) are optional: they go with every `go` beside the game's clock.
pub fn bot_spec(words: &[String]) -> Result<EngineSpec, String> {
    let what = "--engine";
    let settings = parse_settings(words, what)?;
    if settings.limits.tc.is_some() {
        return Err(format!(
            "{what}: tc= has no place here: each game's clock is the server's"
        ));
    }
    let cmd = (settings.cmd)
        .ok_or_else(|| format!("{what}: cmd=PATH is missing (keys: {BOT_ENGINE_KEYS})"))?;
    let name = settings.name.unwrap_or_else(|| {
        cmd.file_stem().map_or_else(
            || "engine".to_string(),
            |s| s.to_string_lossy().into_owned(),
        )
    });
    Ok(EngineSpec {
        name,
        cmd,
        args: settings.args,
        dir: settings.dir,
        protocol: settings.protocol.unwrap_or(Protocol::Auto),
        options: settings.options,
        limits: settings.limits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engine_settings_override_each_which_overrides_the_match() {
        let specs = build_specs(
            &[
                words("cmd=/bin/loa arg=engine name=deep depth=4 option.Hash=8"),
                words("cmd=/bin/loa arg=engine"),
            ],
            &words("option.Hash=1 option.Threads=1 nodes=500"),
            MoveLimits {
                depth: Some(1),
                ..MoveLimits::default()
            },
        )
        .unwrap();
        assert_eq!(specs[0].name, "deep");
        assert_eq!(specs[0].args, ["engine"]);
        assert_eq!(specs[0].limits.depth, Some(4));
        assert_eq!(specs[0].limits.nodes, Some(500));
        assert_eq!(
            specs[0].options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "8".to_string())
            ]
        );
        assert_eq!(specs[1].name, "loa");
        assert_eq!(specs[1].limits.depth, Some(1));
        assert_eq!(specs[1].options[0], ("Hash".to_string(), "1".to_string()));
    }

    #[test]
    fn repeated_default_names_are_numbered() {
        let specs = build_specs(
            &[
                words("cmd=a/loa"),
                words("cmd=b/loa"),
                words("cmd=loa name=x"),
            ],
            &[],
            MoveLimits {
                depth: Some(1),
                ..MoveLimits::default()
            },
        )
        .unwrap();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["loa#1", "loa#2", "x"]);
    }

    #[test]
    fn a_bot_engine_needs_a_command_and_no_clock() {
        let spec = bot_spec(&words("cmd=/bin/loa arg=engine option.Hash=16 depth=9")).unwrap();
        assert_eq!(spec.name, "loa");
        assert_eq!(spec.args, ["engine"]);
        assert_eq!(spec.options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(spec.limits.depth, Some(9));
        let plain = bot_spec(&words("cmd=./engine")).unwrap();
        assert!(plain.limits.is_empty(), "no limit is needed");
        let err = bot_spec(&words("arg=engine")).unwrap_err();
        assert!(err.contains("cmd=PATH is missing"), "{err}");
        let err = bot_spec(&words("cmd=x tc=10+1")).unwrap_err();
        assert!(err.contains("tc= has no place"), "{err}");
    }

    #[test]
    fn mistakes_are_named() {
        let limits = MoveLimits {
            depth: Some(1),
            ..MoveLimits::default()
        };
        let err = build_specs(&[words("name=x")], &[], limits).unwrap_err();
        assert!(err.contains("cmd=PATH is missing"), "{err}");
        let err = build_specs(&[words("cmd=x colour=red")], &[], limits).unwrap_err();
        assert!(err.contains("unknown key 'colour'"), "{err}");
        let err = build_specs(&[words("cmd=x")], &[], MoveLimits::default()).unwrap_err();
        assert!(err.contains("no limit"), "{err}");
        let err = build_specs(&[words("cmd=x depth=0")], &[], limits).unwrap_err();
        assert!(err.contains("depth"), "{err}");
        let err =
            build_specs(&[words("cmd=x name=a"), words("cmd=y name=a")], &[], limits).unwrap_err();
        assert!(err.contains("two engines are named 'a'"), "{err}");
    }
}
