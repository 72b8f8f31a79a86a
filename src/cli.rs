//! The command line: arguments, dispatch, output and exit codes.
//!
//! Exit codes: 0 no error-level diagnostics; 1 at least one (or any warning with
//! `--deny-warnings`); 2 the run itself failed (bad arguments, a named path that cannot be read).

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::{self, CheckOptions, LoadOptions, Run, RunOutcome};
use crate::convert::{Comparison, Conversion, InputError, Normalization};
use crate::inspect::Inspection;
use crate::iri::chars::escape_unsafe;
use crate::iri::{Hosts, Level};
use crate::list;
use crate::report::{self, ReportFormat, Summary, concise, human::HumanRenderer, json};
use crate::rules::{self, RULES, Rule, Selection, Severity};
use crate::source::Format;
use crate::walk;

/// Lint the IRIs (RFC 3987) inside documents.
#[derive(Debug, Parser)]
#[command(
    name = "irilint",
    version,
    about = "Lint the IRIs (RFC 3987) inside documents: hidden bidi controls, invisible and control characters, non-NFC text, bad syntax.",
    after_help = "Without a subcommand, `irilint [PATH...]` runs `check`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check the IRIs in files and directories (the default command).
    Check(CheckArgs),
    /// List every IRI found in files and directories, without checking them.
    List(ListArgs),
    /// List the rules with their groups, default severities and RFC 3987 sections.
    Rules {
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Show a rule's documentation: what it does, why, examples, the fix.
    Explain {
        /// The rule id (see `irilint rules`).
        rule: String,
    },
    /// Show everything irilint knows about one IRI: components, characters, findings.
    Inspect {
        /// The IRI (put it after `--` if it starts with `-`).
        #[arg(allow_hyphen_values = true)]
        iri: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
        /// When to use colour.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Map an IRI to a URI (RFC 3987 §3.1): percent-encode its non-ASCII characters as UTF-8.
    ToUri {
        /// The IRI (put it after `--` if it starts with `-`).
        #[arg(allow_hyphen_values = true)]
        iri: String,
        /// Convert a non-ASCII host to punycode (IDNA ToASCII) for http, https, ws, wss and ftp.
        #[arg(long)]
        idna: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Convert a URI to an IRI (RFC 3987 §3.2): decode percent-encoded UTF-8 where it is safe.
    ToIri {
        /// The URI (put it after `--` if it starts with `-`).
        #[arg(allow_hyphen_values = true)]
        uri: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Print an IRI's normal form at a level of the comparison ladder (RFC 3987 §5.3).
    Normalize {
        /// The IRI (put it after `--` if it starts with `-`).
        #[arg(allow_hyphen_values = true)]
        iri: String,
        /// How far up the ladder to go.
        #[arg(long, value_enum, default_value_t = LevelArg::Scheme)]
        level: LevelArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Tell whether two IRIs are equivalent (RFC 3987 §5.3): exit 0 if they are, 1 if not.
    Compare {
        /// The first IRI (put both after `--` if one starts with `-`).
        #[arg(allow_hyphen_values = true)]
        a: String,
        /// The second IRI.
        #[arg(allow_hyphen_values = true)]
        b: String,
        /// How far up the ladder to go.
        #[arg(long, value_enum, default_value_t = LevelArg::Scheme)]
        level: LevelArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
}

/// A rung of the RFC 3987 §5.3 comparison ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LevelArg {
    /// Character by character (§5.3.1).
    Simple,
    /// Case, NFC, percent-encoding and dot segments (§5.3.2).
    Syntax,
    /// Syntax, plus default ports, empty paths and IDN hosts of http(s), ws(s), ftp (§5.3.3).
    Scheme,
}

impl From<LevelArg> for Level {
    fn from(level: LevelArg) -> Level {
        match level {
            LevelArg::Simple => Level::Simple,
            LevelArg::Syntax => Level::Syntax,
            LevelArg::Scheme => Level::Scheme,
        }
    }
}

#[derive(Debug, Args)]
struct ListArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    format: ListFormat,
}

/// Which files are read, and how.
#[derive(Debug, Args)]
struct InputArgs {
    /// Files and directories; `-` reads standard input. Default: the current directory.
    paths: Vec<PathBuf>,
    /// Read named files and standard input as this format, whatever their extension.
    #[arg(long, value_parser = parse_input_format, value_name = "FORMAT")]
    input_format: Option<Format>,
    /// The name (and, by its extension, the format) of standard input.
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<String>,
}

impl InputArgs {
    fn load_options(&self) -> LoadOptions {
        LoadOptions {
            input_format: self.input_format,
            stdin_filename: self.stdin_filename.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ListFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Report format: human, json or concise.
    #[arg(long, value_parser = parse_report_format, default_value = "human")]
    format: ReportFormat,
    /// Run only these rules or groups (comma-separated; `ALL` for every rule, info ones included).
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    select: Vec<String>,
    /// Run these rules or groups in addition to the selected ones.
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    extend_select: Vec<String>,
    /// Do not run these rules or groups.
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    ignore: Vec<String>,
    /// Exit with 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Print only the diagnostics, no summary.
    #[arg(short, long)]
    quiet: bool,
    /// Print the number of diagnostics per rule.
    #[arg(long)]
    statistics: bool,
    /// Number of threads (default: one per core).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

fn parse_report_format(s: &str) -> Result<ReportFormat, String> {
    match s {
        "human" => Ok(ReportFormat::Human),
        "json" => Ok(ReportFormat::Json),
        "concise" => Ok(ReportFormat::Concise),
        _ if Format::from_name(s).is_some() => Err(format!(
            "`{s}` is an input format; to read files as {s}, use `--input-format {s}` (report formats: human, json, concise)"
        )),
        _ => Err("report formats are human, json and concise".to_string()),
    }
}

fn parse_input_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!("input formats are: {}", names.join(", "))
    })
}

const SUBCOMMANDS: [&str; 10] = [
    "check",
    "list",
    "rules",
    "explain",
    "inspect",
    "to-uri",
    "to-iri",
    "normalize",
    "compare",
    "help",
];

/// Runs irilint with `args` (including the program name) and returns the exit code.
pub fn run(mut args: Vec<OsString>) -> ExitCode {
    let first = args.get(1).and_then(|a| a.to_str());
    let explicit = first.is_some_and(|a| {
        SUBCOMMANDS.contains(&a) || matches!(a, "-h" | "--help" | "-V" | "--version")
    });
    if !explicit {
        args.insert(1.min(args.len()), "check".into());
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check(args) => run_check(args),
        Command::List(args) => run_list(&args),
        Command::Rules { format } => run_rules(format),
        Command::Explain { rule } => run_explain(&rule),
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

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

fn run_check(args: CheckArgs) -> ExitCode {
    let selection = match Selection::from_selectors(&args.select, &args.extend_select, &args.ignore)
    {
        Ok(s) => s,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(n) = args.jobs
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
    {
        return fail(&format!("cannot start {n} threads: {e}"));
    }
    let walk = match walk::collect(&args.input.paths) {
        Ok(w) => w,
        Err(walk::FatalError(message)) => return fail(&message),
    };
    let renderer = HumanRenderer::new(use_color(args.color));
    let render_human =
        |s: &crate::source::Source, d: &[crate::diagnostic::Diagnostic]| renderer.render_file(s, d);
    let render_concise = |s: &crate::source::Source, d: &[crate::diagnostic::Diagnostic]| {
        concise::render_file(&s.path, d)
    };
    let render: Option<check::Render<'_>> = match args.format {
        ReportFormat::Human => Some(&render_human),
        ReportFormat::Concise => Some(&render_concise),
        ReportFormat::Json => None,
    };
    let project_human =
        |path: &str, d: &[crate::diagnostic::Diagnostic]| renderer.render_detached(path, d);
    let project_concise = concise::render_file;
    let render_project: Option<check::RenderProject<'_>> = match args.format {
        ReportFormat::Human => Some(&project_human),
        ReportFormat::Concise => Some(&project_concise),
        ReportFormat::Json => None,
    };
    let options = CheckOptions {
        selection: &selection,
        render,
        render_project,
    };
    let mut outcome = check::run(&walk.inputs, &args.input.load_options(), &options);
    outcome.errors.splice(0..0, walk.errors);
    print_outcome(&outcome, &args);

    let summary = Summary::of(&outcome);
    let failed = summary.errors > 0 || (args.deny_warnings && summary.warnings > 0);
    ExitCode::from(u8::from(failed))
}

fn print_outcome(outcome: &RunOutcome, args: &CheckArgs) {
    // Unreadable files go to stderr, and into the report's `errors` for JSON.
    print_file_errors(outcome);
    match args.format {
        ReportFormat::Json => emit(&json::render(outcome)),
        ReportFormat::Human | ReportFormat::Concise => {
            let mut out = String::new();
            for f in &outcome.files {
                out.push_str(&f.rendered);
            }
            if args.statistics {
                for (rule, severity, n) in report::statistics(outcome) {
                    out.push_str(&format!("{n:>6}  {:<8} {rule}\n", severity.name()));
                }
            }
            if args.format == ReportFormat::Human && !args.quiet {
                out.push_str(&report::summary_line(&Summary::of(outcome)));
                out.push('\n');
            }
            emit(&out);
        }
    }
}

fn print_file_errors<T>(run: &Run<T>) {
    for e in &run.skipped {
        eprintln!(
            "irilint: {}: {}",
            escape_unsafe(&e.path),
            escape_unsafe(&e.message)
        );
    }
    for e in &run.errors {
        eprintln!(
            "irilint: error: {}: {}",
            escape_unsafe(&e.path),
            escape_unsafe(&e.message)
        );
    }
}

fn run_list(args: &ListArgs) -> ExitCode {
    let walk = match walk::collect(&args.input.paths) {
        Ok(w) => w,
        Err(walk::FatalError(message)) => return fail(&message),
    };
    let mut run =
        check::for_each_source(&walk.inputs, &args.input.load_options(), list::list_source);
    run.errors.splice(0..0, walk.errors);
    print_file_errors(&run);
    match args.format {
        ListFormat::Json => emit(&list::render_json(&run)),
        ListFormat::Human => emit(&list::render_human(&run)),
    }
    ExitCode::SUCCESS
}

fn run_rules(format: ListFormat) -> ExitCode {
    match format {
        ListFormat::Json => {
            #[derive(serde::Serialize)]
            struct RuleJson {
                id: &'static str,
                group: &'static str,
                severity: Severity,
                rfc: String,
                summary: &'static str,
            }
            let list: Vec<RuleJson> = RULES
                .iter()
                .map(|r| RuleJson {
                    id: r.id,
                    group: r.group,
                    severity: r.severity,
                    rfc: r.rfc_sections(),
                    summary: r.summary(),
                })
                .collect();
            emit(&json::to_string(&list));
        }
        ListFormat::Human => {
            let sections = |r: &Rule| {
                if r.rfc.is_empty() {
                    "—".to_string()
                } else {
                    format!("§{}", r.rfc_sections())
                }
            };
            let id_width = RULES.iter().map(|r| r.id.len()).max().unwrap_or(0);
            let group_width = RULES.iter().map(|r| r.group.len()).max().unwrap_or(0);
            let rfc_width = RULES
                .iter()
                .map(|r| sections(r).chars().count())
                .max()
                .unwrap_or(0);
            let mut out = String::new();
            for r in RULES {
                let off = if r.severity == Severity::Info {
                    " (off by default)"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "{:<id_width$} {:<group_width$} {:<8} {:<rfc_width$} {}{off}\n",
                    r.id,
                    r.group,
                    r.severity.name(),
                    sections(r),
                    r.summary()
                ));
            }
            emit(&out);
        }
    }
    ExitCode::SUCCESS
}

fn run_explain(id: &str) -> ExitCode {
    match rules::rule(id) {
        Some(rule) => {
            emit(rule.doc);
            ExitCode::SUCCESS
        }
        None => match Selection::from_selectors(&[id], &[], &[]) {
            Ok(_) => fail(&format!(
                "`{id}` is a group, not a rule; `irilint rules` lists the rules in it"
            )),
            Err(e) => fail(&e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

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
