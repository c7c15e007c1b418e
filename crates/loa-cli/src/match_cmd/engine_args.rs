//! The `--engine` options: one list of KEY=VALUE words per occurrence, for
//! [`loa_match::build_specs`].

use loa_match::ENGINE_KEYS;

/// The `--engine` options, one list of KEY=VALUE words per occurrence. (clap's derive
/// flattens repeated multi-value options into one list; this keeps them apart.)
#[derive(Clone, Debug, Default)]
pub struct EngineArgs(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<EngineArgs, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| {
                occurrences
                    .map(|values| values.cloned().collect())
                    .collect()
            })
            .unwrap_or_default();
        Ok(EngineArgs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .help(format!(
                    "An engine, as KEY=VALUE words ({ENGINE_KEYS}); cmd= is required, arg= \
                     repeats. Give two or more."
                )),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineArgs::augment_args(cmd)
    }
}
