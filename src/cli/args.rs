//! The command line's arguments: every subcommand and flag, and the values they parse.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::LoadOptions;
use crate::config::Discovery;
use crate::iri::Level;
use crate::report::ReportFormat;
use crate::source::Format;

/// Lint the IRIs (RFC 3987) inside documents.
#[derive(Debug, Parser)]
#[command(
    name = "irilint",
    version,
    about = "Lint the IRIs (RFC 3987) inside documents: hidden bidi controls, invisible and control characters, non-NFC text, bad syntax.",
    after_help = "Without a subcommand, `irilint [PATH...]` runs `check`."
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
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
    /// Show the configuration keys (`irilint.toml`), or one key's documentation.
    Config {
        /// A key (`select`, `severity`, `overrides`, ...).
        key: Option<String>,
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
    /// Run the language server (LSP over stdin/stdout) for editors.
    Lsp,
}

/// A rung of the RFC 3987 §5.3 comparison ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum LevelArg {
    /// Character by character (§5.3.1).
    Simple,
    /// Case, percent-encoding and dot segments (§5.3.2); never NFC (§5.3.2.2).
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
pub(super) struct ListArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,
    #[command(flatten)]
    pub(super) config: ConfigArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub(super) format: ListFormat,
}

/// Which files are read, and how.
#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// Files and directories; `-` reads standard input. Default: the current directory.
    pub(super) paths: Vec<PathBuf>,
    /// Read named files and standard input as this format, whatever their extension.
    #[arg(long, value_parser = parse_input_format, value_name = "FORMAT")]
    pub(super) input_format: Option<Format>,
    /// The name (and, by its extension, the format) of standard input; without a PATH, standard
    /// input is read.
    #[arg(long, value_name = "PATH")]
    pub(super) stdin_filename: Option<String>,
    /// Walk hidden (dot) files and directories too: `.github/`, `.vitepress/` (the default, as
    /// ruff; version-control directories such as `.git/` are never walked).
    #[arg(long, overrides_with = "no_hidden")]
    pub(super) hidden: bool,
    /// Skip hidden files and directories when walking (named ones are still read).
    #[arg(long, overrides_with = "hidden")]
    pub(super) no_hidden: bool,
    /// Files (and standard input) larger than this are not read: bytes, or with a K, M or G
    /// suffix (powers of 1024).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "512M")]
    pub(super) max_file_size: u64,
}

impl InputArgs {
    /// As ruff does, `--stdin-filename` without a path reads standard input (not the current
    /// directory).
    pub(super) fn stdin_by_default(&mut self) {
        if self.paths.is_empty() && self.stdin_filename.is_some() {
            self.paths.push(PathBuf::from("-"));
        }
    }

    pub(super) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            input_format: self.input_format,
            stdin_filename: self.stdin_filename.clone(),
            max_file_size: self.max_file_size,
            keep_bytes: false,
            stdin_kept: None,
        }
    }
}

/// `512M`, `1G`, `64K`, `1000`: a size in bytes (K, M, G are powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().last() {
        Some((k, c)) if c.is_ascii_alphabetic() => (&t[..k], c.to_ascii_uppercase()),
        _ => (t, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => {
            return Err(format!(
                "unknown unit `{unit}`: use K, M or G (for example 512M)"
            ));
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size: write a number of bytes, or 64K, 512M, 2G"))?;
    n.checked_mul(1 << shift)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{s}` is not a usable size"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ListFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

/// Where configuration comes from.
#[derive(Debug, Args)]
pub(super) struct ConfigArgs {
    /// Use this configuration file for every path (instead of the closest `irilint.toml`,
    /// `.irilint.toml` or `pyproject.toml` with `[tool.irilint]`).
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub(super) config: Option<PathBuf>,
    /// Ignore every configuration file.
    #[arg(long)]
    pub(super) isolated: bool,
    /// Apply `exclude` to files named on the command line too (what a pre-commit hook needs).
    #[arg(long)]
    pub(super) force_exclude: bool,
}

impl ConfigArgs {
    pub(super) fn discovery(&self) -> Discovery {
        match (&self.config, self.isolated) {
            (Some(path), _) => Discovery::Fixed(path.clone()),
            (None, true) => Discovery::Isolated,
            (None, false) => Discovery::Nearest,
        }
    }
}

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) input: InputArgs,
    #[command(flatten)]
    pub(super) config: ConfigArgs,
    /// Print the settings that apply to PATH (and the files they come from) and exit.
    #[arg(long, value_name = "PATH")]
    pub(super) show_settings: Option<PathBuf>,
    /// Report only the findings that are not in this baseline file.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub(super) baseline: Option<PathBuf>,
    /// With `--baseline`, drop from it the entries that match nothing any more (fixed, or
    /// their file is gone), so that a problem that comes back is reported; adds nothing.
    #[arg(long, requires = "baseline")]
    pub(super) prune_baseline: bool,
    /// Write every current finding to this baseline file and exit with 0.
    #[arg(long, value_name = "FILE")]
    pub(super) write_baseline: Option<PathBuf>,
    /// Report format: human, json, concise, sarif, github, junit or gitlab.
    #[arg(long, value_parser = parse_report_format, default_value = "human")]
    pub(super) format: ReportFormat,
    /// Write the report to FILE (atomically: complete or not at all) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) output_file: Option<PathBuf>,
    /// Exit with 0 even when there are errors (2 still means the run failed).
    #[arg(long)]
    pub(super) exit_zero: bool,
    /// Run only these rules or groups (comma-separated; `ALL` for every rule, info ones included).
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    pub(super) select: Vec<String>,
    /// Run these rules or groups in addition to the selected ones.
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    pub(super) extend_select: Vec<String>,
    /// Do not run these rules or groups.
    #[arg(long, value_delimiter = ',', value_name = "RULE|GROUP")]
    pub(super) ignore: Vec<String>,
    /// Exit with 1 on warnings too.
    #[arg(long)]
    pub(super) deny_warnings: bool,
    /// Print only the diagnostics, no summary.
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// Print the number of diagnostics per rule.
    #[arg(long)]
    pub(super) statistics: bool,
    /// Number of threads (default: one per core).
    #[arg(short, long, value_name = "N")]
    pub(super) jobs: Option<usize>,
    /// When to use colour.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub(super) color: ColorChoice,
    /// Apply the safe fixes to the files (standard input: print the fixed document).
    #[arg(long, conflicts_with = "write_baseline")]
    pub(super) fix: bool,
    /// With `--fix` or `--diff`, apply the unsafe fixes too (they may change which resource an
    /// IRI names).
    #[arg(long)]
    pub(super) unsafe_fixes: bool,
    /// Print a unified diff of what `--fix` would change; write nothing (exit 1 if there is one).
    #[arg(long, conflicts_with = "write_baseline")]
    pub(super) diff: bool,
}

pub(super) fn parse_report_format(s: &str) -> Result<ReportFormat, String> {
    let names: Vec<&str> = ReportFormat::ALL.iter().map(|(n, _)| *n).collect();
    let names = names.join(", ");
    match ReportFormat::from_name(s) {
        Some(format) => Ok(format),
        None if Format::from_name(s).is_some() => Err(format!(
            "`{s}` is an input format; to read files as {s}, use `--input-format {s}` (report formats: {names})"
        )),
        None => Err(format!("report formats are {names}")),
    }
}

pub(super) fn parse_input_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names = Format::names();
        format!("input formats are: {}", names.join(", "))
    })
}

pub(super) const SUBCOMMANDS: [&str; 12] = [
    "check",
    "config",
    "list",
    "rules",
    "explain",
    "inspect",
    "to-uri",
    "to-iri",
    "normalize",
    "compare",
    "lsp",
    "help",
];
