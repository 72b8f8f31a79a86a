//! The report of a check run in the format asked for, and the files it could not read: what
//! `check` and `check --fix` both print.

use super::args::CheckArgs;
use crate::check::{Run, RunOutcome};
use crate::iri::chars::escape_unsafe;
use crate::report::place::Places;
use crate::report::sarif::{self, RunFacts};
use crate::report::{self, ReportFormat, Summary, github, gitlab, json, junit};

/// The report in the format asked for, as it will be written (`exit_code` goes into SARIF).
pub(super) fn render_report<'a>(
    outcome: &RunOutcome,
    args: &CheckArgs,
    selections: impl IntoIterator<Item = &'a crate::rules::Selection>,
    exit_code: u8,
) -> String {
    let mut out = Vec::new();
    write_body(outcome, args, selections, exit_code, &mut out)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

/// Writes the report in the format asked for to `out`; the JSON and SARIF reports one
/// diagnostic at a time, never whole in memory.
pub(super) fn write_body<'a>(
    outcome: &RunOutcome,
    args: &CheckArgs,
    selections: impl IntoIterator<Item = &'a crate::rules::Selection>,
    exit_code: u8,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let places = Places::current();
    let text = match args.format {
        ReportFormat::Json => return json::write(outcome, out),
        ReportFormat::Sarif => {
            let rules = report::rules_that_ran(selections, outcome);
            let facts = RunFacts {
                rules: &rules,
                exit_code: i32::from(exit_code),
            };
            return sarif::write(outcome, &facts, &places, out);
        }
        ReportFormat::Github => github::render(outcome, &places),
        ReportFormat::Junit => junit::render(outcome, &places),
        ReportFormat::Gitlab => gitlab::render(outcome, &places),
        ReportFormat::Human | ReportFormat::Concise => {
            // Each file's part was rendered while its document was in memory.
            for f in &outcome.files {
                out.write_all(f.rendered.as_bytes())?;
            }
            let mut tail = String::new();
            if args.statistics {
                for (rule, severity, n) in report::statistics(outcome) {
                    tail.push_str(&format!("{n:>6}  {:<8} {rule}\n", severity.name()));
                }
            }
            if args.format == ReportFormat::Human && !args.quiet {
                tail.push_str(&report::summary_line(&Summary::of(outcome)));
                tail.push('\n');
            }
            tail
        }
    };
    out.write_all(text.as_bytes())
}

pub(super) fn print_file_errors<T>(run: &Run<T>) {
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
