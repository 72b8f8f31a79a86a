//! The report of a check run in the format asked for, and the files it could not read: what
//! `check` and `check --fix` both print.

use super::args::CheckArgs;
use crate::check::{Run, RunOutcome};
use crate::iri::chars::escape_unsafe;
use crate::report::place::Places;
use crate::report::sarif::{self, RunFacts};
use crate::report::{self, ReportFormat, Summary, github, gitlab, json, junit};
use crate::rules::Selection;

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
        ReportFormat::Junit => junit::render(outcome, &places, args.deny_warnings),
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
            if !args.quiet {
                let unread = outcome.errors.len();
                tail.push_str(&report::summary_line_with_unread(
                    &Summary::of(outcome),
                    unread,
                ));
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

/// The exit code of a run that gave `summary` and could not read `unread`.
pub(super) fn exit_code(args: &CheckArgs, summary: &Summary, unread: &Run<()>) -> u8 {
    let failed = summary.errors > 0 || (args.deny_warnings && summary.warnings > 0);
    // A file named on the command line (or standard input) that could not be read fails the
    // run, whatever the others gave and whatever --exit-zero says.
    if unread.fatal_errors > 0 {
        2
    } else {
        u8::from(failed && !args.exit_zero)
    }
}

/// Writes the report of `files` as they come ([`check::run_ordered`]): one file's findings at a
/// time are held.
pub(super) fn write_streamed(
    files: impl Iterator<Item = crate::check::FileOutcome>,
    unread: &std::cell::RefCell<Run<()>>,
    args: &CheckArgs,
    selections: &[&Selection],
    exit_code: &dyn Fn(&Summary, &Run<()>) -> i32,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let summary = match args.format {
        ReportFormat::Json => json::write_files(files, unread, out)?,
        ReportFormat::Sarif => {
            let rules = report::rules_enabled(selections.iter().copied());
            let places = Places::current();
            sarif::write_files(files, unread, &rules, exit_code, &places, out)?
        }
        ReportFormat::Github => github::write_files(files, unread, &Places::current(), out)?,
        ReportFormat::Gitlab => gitlab::write_files(files, &Places::current(), out)?,
        ReportFormat::Junit => {
            junit::write_files(files, unread, &Places::current(), args.deny_warnings, out)?
        }
        _ => {
            let mut summary = Summary::default();
            let mut statistics = report::Statistics::default();
            for f in files {
                out.write_all(f.rendered.as_bytes())?;
                for u in report::Unlisted::of(&f) {
                    out.write_all(format!("irilint: {}\n\n", u.notice()).as_bytes())?;
                }
                summary.add(&f);
                if args.statistics {
                    statistics.add(&f);
                }
            }
            let mut tail = String::new();
            for (rule, severity, n) in statistics.sorted() {
                tail.push_str(&format!("{n:>6}  {:<8} {rule}\n", severity.name()));
            }
            if !args.quiet {
                let unread = unread.borrow().errors.len();
                tail.push_str(&report::summary_line_with_unread(&summary, unread));
                tail.push('\n');
            }
            out.write_all(tail.as_bytes())?;
            summary
        }
    };
    exit_code(&summary, &unread.borrow());
    Ok(())
}
