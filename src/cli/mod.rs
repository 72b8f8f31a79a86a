//! The command line: dispatch, output and exit codes. Arguments live in [`args`], `check` in
//! [`check`], the catalog commands in [`commands`].
//!
//! Exit codes: 0 no error-level diagnostics; 1 at least one (or any warning with
//! `--deny-warnings`); 2 the run itself failed (bad arguments, a path that cannot be read, named
//! or met while walking, a bad configuration).

mod args;
mod check;
mod commands;
mod fix;
mod output;
mod progress;
mod report;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::convert::{Comparison, Conversion, InputError, Normalization};
use crate::inspect::Inspection;
use crate::iri::Hosts;
use crate::iri::chars::escape_unsafe;
use args::{Cli, ColorChoice, Command, ListFormat, SUBCOMMANDS};
use check::run_check;
use commands::{run_config, run_explain, run_list, run_rules};

/// Runs irilint with `args` (including the program name) and returns the exit code.
pub fn run(mut args: Vec<OsString>) -> ExitCode {
    let first = args.get(1).and_then(|a| a.to_str());
    let explicit = first.is_some_and(|a| {
        SUBCOMMANDS.contains(&a) || matches!(a, "-h" | "--help" | "-V" | "--version")
    });
    if !explicit {
        if let Some(message) = first.and_then(mistyped_subcommand) {
            eprintln!("irilint: error: {message}");
            return ExitCode::from(2);
        }
        args.insert(1.min(args.len()), "check".into());
    }
    let mut cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // clap quotes the bad value: a hidden character or an escape in it is shown as
            // `⟨U+202E⟩`, never written raw to the terminal.
            let text = crate::report::visible_lines(&e.render().to_string());
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match &mut cli.command {
        Command::Check(args) => args.input.stdin_by_default(),
        Command::List(args) => args.input.stdin_by_default(),
        _ => {}
    }
    match cli.command {
        Command::Check(args) => run_check(args),
        Command::List(args) => run_list(&args),
        Command::Rules { format } => run_rules(format),
        Command::Explain { rule } => run_explain(&rule),
        Command::Config { key } => run_config(key.as_deref()),
        Command::Lsp => match crate::lsp::run() {
            Ok(true) => ExitCode::SUCCESS,
            // LSP: `exit` without `shutdown` first (or a vanished client) exits with 1.
            Ok(false) => ExitCode::from(1),
            Err(message) => fail(&message),
        },
        Command::Inspect { iri, format, color } => {
            let inspection = Inspection::new(&iri);
            match format {
                ListFormat::Json => emit(&inspection.to_json()),
                ListFormat::Human => emit(&inspection.to_human(use_color(color))),
            }
            ExitCode::from(u8::from(!inspection.is_valid()))
        }
        Command::ToUri { iri, idna, format } => {
            let hosts = if idna {
                Hosts::ToAscii
            } else {
                Hosts::PercentEncode
            };
            print_result(
                Conversion::to_uri(&iri, hosts),
                format,
                Conversion::to_json,
                Conversion::to_human,
                |_| ExitCode::SUCCESS,
            )
        }
        Command::ToIri { uri, format } => print_result(
            Conversion::to_iri(&uri),
            format,
            Conversion::to_json,
            Conversion::to_human,
            |_| ExitCode::SUCCESS,
        ),
        Command::Normalize { iri, level, format } => print_result(
            Normalization::new(&iri, level.into()),
            format,
            Normalization::to_json,
            Normalization::to_human,
            |_| ExitCode::SUCCESS,
        ),
        Command::Compare {
            a,
            b,
            level,
            format,
        } => print_result(
            Comparison::new(&a, &b, level.into()),
            format,
            Comparison::to_json,
            Comparison::to_human,
            |c| ExitCode::from(u8::from(!c.is_equivalent())),
        ),
    }
}

/// Prints a conversion's result (exit as `code` says) or its error (exit 2).
fn print_result<T>(
    result: Result<T, InputError>,
    format: ListFormat,
    json: fn(&T) -> String,
    human: fn(&T) -> String,
    code: fn(&T) -> ExitCode,
) -> ExitCode {
    match result {
        Ok(r) => {
            emit(&match format {
                ListFormat::Json => json(&r),
                ListFormat::Human => human(&r),
            });
            code(&r)
        }
        Err(InputError(message)) => fail(&message),
    }
}

/// Writes to standard output; a closed pipe (`irilint | head`) is not an error.
fn emit(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes()).and_then(|()| out.flush());
}

fn fail(message: &str) -> ExitCode {
    eprintln!("irilint: error: {}", escape_unsafe(message));
    ExitCode::from(2)
}

/// Reports why the run cannot go on (a path, a configuration) and exits with 2.
fn fail_fatal(e: crate::walk::FatalError) -> ExitCode {
    match e {
        crate::walk::FatalError::Path(message) => fail(&message),
        crate::walk::FatalError::Config(e) => {
            let color = auto_color(std::io::stderr().is_terminal(), |k| std::env::var_os(k));
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(e.render(color).as_bytes());
            ExitCode::from(2)
        }
    }
}

/// For a first argument that is no path and no subcommand but looks like one (`chek`), the
/// error that suggests the subcommand; `None` when it exists as a path or is like none.
fn mistyped_subcommand(arg: &str) -> Option<String> {
    if arg.starts_with('-') || std::path::Path::new(arg).symlink_metadata().is_ok() {
        return None;
    }
    let lower = arg.to_lowercase();
    let (best, distance) = SUBCOMMANDS
        .iter()
        .map(|s| (*s, strsim::damerau_levenshtein(&lower, s)))
        .min_by_key(|(_, d)| *d)?;
    // One edit, or two in a longer word (`ls` is a missing path, not `lsp` mistyped).
    let near =
        distance <= 1 && lower.chars().count() >= 3 || distance == 2 && lower.chars().count() >= 5;
    near.then(|| {
        format!(
            "`{}` is neither a subcommand nor a path that exists; did you mean `{best}`? (`irilint {best} --help`; to check a path, `irilint check PATH`)",
            escape_unsafe(arg)
        )
    })
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => auto_color(std::io::stdout().is_terminal(), |k| std::env::var_os(k)),
    }
}

/// Colour by the conventions of the environment (no-color.org, force-color.org, CLICOLOR):
/// `NO_COLOR` set and not empty wins; then `FORCE_COLOR` or `CLICOLOR_FORCE` set and not
/// empty or `0` force it; then a terminal gets colour unless `TERM` is `dumb`.
fn auto_color(is_terminal: bool, var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let set = |k: &str| var(k).is_some_and(|v| !v.is_empty());
    let forced = |k: &str| var(k).is_some_and(|v| !v.is_empty() && v != "0");
    if set("NO_COLOR") {
        return false;
    }
    if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") {
        return true;
    }
    is_terminal && var("TERM").is_none_or(|t| t != "dumb")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn colour_follows_no_color_force_color_clicolor_force_and_term() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        assert!(auto_color(true, env(&[])));
        assert!(!auto_color(false, env(&[])));
        assert!(!auto_color(true, env(&[("TERM", "dumb")])));
        assert!(auto_color(false, env(&[("FORCE_COLOR", "1")])));
        assert!(auto_color(false, env(&[("CLICOLOR_FORCE", "1")])));
        assert!(auto_color(
            true,
            env(&[("TERM", "dumb"), ("FORCE_COLOR", "3")])
        ));
        assert!(!auto_color(false, env(&[("FORCE_COLOR", "0")])));
        assert!(!auto_color(false, env(&[("FORCE_COLOR", "")])));
        assert!(!auto_color(
            true,
            env(&[("NO_COLOR", "1"), ("FORCE_COLOR", "1")])
        ));
        assert!(auto_color(true, env(&[("NO_COLOR", "")])));
    }

    #[test]
    fn every_subcommand_is_dispatched_without_an_implicit_check() {
        for command in Cli::command().get_subcommands() {
            let name = command.get_name();
            assert!(
                SUBCOMMANDS.contains(&name),
                "{name} is missing from SUBCOMMANDS"
            );
        }
    }
}
