//! `check --fix`, `--unsafe-fixes` and `--diff`: the options, and what is printed after fixing.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::args::CheckArgs;
use super::output::{stream_report_around, write_report};
use super::progress::Progress;
use super::report::{print_file_errors, render_report};
use super::{emit, fail};
use crate::check::{FileOutcome, LoadOptions, Loaded, Run, RunOutcome};
use crate::config::FileSettings;
use crate::fix::{FixOptions, FixOutput};
use crate::iri::chars::escape_unsafe;
use crate::report::{ReportFormat, Summary};
use crate::rules::Selection;
use crate::walk::Entry;
use crate::walk::FileError;

/// The fix options the arguments ask for, `None` without `--fix` or `--diff`.
pub(super) fn options(args: &CheckArgs) -> Option<FixOptions> {
    let output = if args.diff {
        FixOutput::Diff
    } else if args.fix {
        FixOutput::Write
    } else {
        return None;
    };
    Some(FixOptions {
        unsafe_fixes: args.unsafe_fixes,
        output,
    })
}

/// Prints a diff on standard output: its bytes as they are for a program (a file, a pipe:
/// `git apply` takes it), hidden characters escaped on a terminal; whether some were escaped.
fn emit_diff(diff: &str) -> bool {
    if std::io::stdout().is_terminal() {
        let shown = crate::fix::diff::for_terminal(diff);
        emit(&shown);
        matches!(shown, std::borrow::Cow::Owned(_))
    } else {
        emit(diff);
        false
    }
}

/// Says, once, that the diff on the terminal does not apply as shown.
fn say_escaped(escaped: bool) {
    if escaped {
        eprintln!(
            "irilint: note: hidden characters in the diff are shown as ⟨U+…⟩ escapes on a terminal; redirect it to a file for a patch that applies (`irilint check --diff > fixes.patch && git apply fixes.patch`)"
        );
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `Fixed 2 issues, 1 remaining (1 more fixable with --unsafe-fixes).`
fn fixed_line(outcome: &RunOutcome, output: FixOutput) -> String {
    let mut totals = Totals::default();
    for f in &outcome.files {
        totals.add(f);
    }
    totals.line(output)
}

/// What fixing did to every file so far: what the last line says.
#[derive(Debug, Default)]
pub(super) struct Totals {
    applied: usize,
    more: usize,
    remaining: usize,
}

impl Totals {
    fn add(&mut self, f: &FileOutcome) {
        self.applied += f.fixes.applied;
        self.more += f.fixes.unsafe_available;
        self.remaining += f.diagnostics.len();
    }

    fn line(&self, output: FixOutput) -> String {
        let Totals {
            applied,
            more,
            remaining,
        } = *self;
        fixed_line_of(applied, more, remaining, output)
    }
}

fn fixed_line_of(applied: usize, more: usize, remaining: usize, output: FixOutput) -> String {
    if applied == 0 && more > 0 {
        // The default rules' fixes are unsafe (removing a bidi control changes the link): a
        // first `--fix` that says only "Fixed 0" reads as broken. Say why, and what to run.
        let (fixes, they, them) = if more == 1 {
            ("The fix available is".to_string(), "it may", "it")
        } else {
            (
                format!("The {more} fixes available are"),
                "they may",
                "them",
            )
        };
        return match output {
            FixOutput::Diff => format!(
                "No safe fix to show. {fixes} unsafe ({they} change which resource a link names): show {them} with `--diff --unsafe-fixes`."
            ),
            FixOutput::Write => format!(
                "No safe fix to apply, {remaining} remaining. {fixes} unsafe ({they} change which resource a link names): review {them} with `--diff --unsafe-fixes`, apply {them} with `--fix --unsafe-fixes`."
            ),
        };
    }
    let mut line = match output {
        FixOutput::Diff => format!("Would fix {}", plural(applied, "issue", "issues")),
        FixOutput::Write => format!(
            "Fixed {}, {} remaining",
            plural(applied, "issue", "issues"),
            remaining
        ),
    };
    if more > 0 {
        line.push_str(&format!(" ({more} more fixable with --unsafe-fixes)"));
    }
    line.push('.');
    line
}

/// Prints what fixing did and returns the exit code: 2 when a file could not be written (or a
/// named file read), else as `check` (with `--diff`: 1 when there is a diff); `--exit-zero`
/// turns 1 into 0. `selections` are the rules that ran, for SARIF.
pub(super) fn finish(
    mut outcome: RunOutcome,
    args: &CheckArgs,
    fix: FixOptions,
    selections: &[&Selection],
) -> ExitCode {
    let mut write_failed = false;
    for f in &outcome.files {
        if let Some(error) = take_note(f) {
            outcome.errors.push(error);
            write_failed = true;
        }
    }
    if fix.output == FixOutput::Diff {
        print_file_errors(&outcome);
        let diffs: String = outcome
            .files
            .iter()
            .filter_map(|f| f.fixes.diff.as_deref())
            .collect();
        let escaped = emit_diff(&diffs);
        if !args.quiet {
            eprintln!("{}", fixed_line(&outcome, fix.output));
        }
        say_escaped(escaped);
        if outcome.fatal_errors > 0 {
            return ExitCode::from(2);
        }
        return ExitCode::from(u8::from(!diffs.is_empty() && !args.exit_zero));
    }
    let reads_stdin = args.input.paths.iter().any(|p| p.as_os_str() == "-");
    let document = outcome.files.iter().find_map(|f| f.fixes.stdout.as_ref());
    if reads_stdin && document.is_none() {
        // Binary or unreadable: there is no fixed document, and whoever pipes through irilint
        // must not take an empty output (or a report) for one.
        print_file_errors(&outcome);
        eprintln!(
            "irilint: error: standard input was not fixed; nothing was written to standard output"
        );
        return ExitCode::from(2);
    }
    let summary = Summary::of(&outcome);
    let failed = summary.errors > 0 || (args.deny_warnings && summary.warnings > 0);
    let code = if write_failed || outcome.fatal_errors > 0 {
        2
    } else {
        u8::from(failed && !args.exit_zero)
    };
    let report = render_report(&outcome, args, selections.iter().copied(), code);
    if let Some(document) = document {
        // Standard output carries the fixed document, so the report goes to standard error
        // (or to --output-file).
        let mut out = std::io::stdout().lock();
        if let Err(e) = document.copy_to(&mut out).and_then(|_| out.flush())
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            return fail(&format!("cannot write the fixed document: {e}"));
        }
        print_file_errors(&outcome);
        match &args.output_file {
            Some(file) => {
                if let Err(message) = write_report(Some(file), &report) {
                    return fail(&message);
                }
            }
            None => eprint!("{report}"),
        }
        if !args.quiet {
            eprintln!("{}", fixed_line(&outcome, fix.output));
        }
    } else {
        print_file_errors(&outcome);
        if let Err(message) = write_report(args.output_file.as_deref(), &report) {
            return fail(&message);
        }
        if !args.quiet {
            let line = fixed_line(&outcome, fix.output);
            if args.format == ReportFormat::Human && args.output_file.is_none() {
                emit(&format!("{line}\n"));
            } else {
                eprintln!("{line}");
            }
        }
    }
    ExitCode::from(code)
}

/// What a streamed fix run leaves for its last line and exit code.
pub(super) struct Finished {
    totals: Totals,
    /// The exit code (the one SARIF carries).
    code: u8,
    /// Standard input was read and gave no fixed document (binary, unreadable).
    stdin_unfixed: bool,
}

/// Prints a file's warning, and returns its write failure as an error of the run.
fn take_note(f: &FileOutcome) -> Option<FileError> {
    if f.fixes.refused > 0 {
        eprintln!(
            "irilint: warning: {}: {} left out: applying it would change more than the IRI it fixes",
            escape_unsafe(&f.path),
            plural(f.fixes.refused, "fix", "fixes")
        );
    }
    if f.fixes.in_package > 0 {
        eprintln!(
            "irilint: warning: {}: {} not applied: irilint does not write into packages (EPUB, Office and OpenDocument files are zip files their tools rebuild; a PDF is objects at byte offsets its tools rewrite); fix the document the package was made from",
            escape_unsafe(&f.path),
            plural(f.fixes.in_package, "fix", "fixes")
        );
    }
    f.fixes.error.as_ref().map(|e| FileError {
        path: f.path.clone(),
        message: e.clone(),
    })
}

/// `check --fix` or `--diff` over the inputs, each file fixed, reported and dropped in input
/// order as the run goes on ([`crate::check::run_ordered_with`]), never all held: the diffs
/// are printed, or the report written, file by file (to standard error when standard input's
/// fixed document goes to standard output, which it does when its turn comes). `Err` when the report
/// could not be written.
#[allow(clippy::too_many_arguments)]
pub(super) fn streamed(
    inputs: &[Entry],
    already: Run<()>,
    load: &LoadOptions,
    per_file: &(dyn Fn(Loaded, &FileSettings) -> FileOutcome + Sync),
    file_done: &(dyn Fn(usize) + Sync),
    args: &CheckArgs,
    fix: FixOptions,
    selections: &[&Selection],
    progress: Option<&Progress>,
) -> Result<Finished, String> {
    // Whatever goes to standard output while the bar may be drawn goes around it.
    let around = |write: &mut dyn FnMut()| match progress {
        Some(p) => p.suspend(&mut *write),
        None => write(),
    };
    if fix.output == FixOutput::Diff {
        let mut totals = Totals::default();
        let mut diffed = false;
        let mut escaped = false;
        let ((), unread) =
            crate::check::run_ordered_with(inputs, already, load, per_file, file_done, |files| {
                let unread = files.unread();
                for f in files {
                    if let Some(error) = take_note(&f) {
                        unread.borrow_mut().errors.push(error);
                    }
                    totals.add(&f);
                    if let Some(diff) = &f.fixes.diff {
                        diffed |= !diff.is_empty();
                        around(&mut || escaped |= emit_diff(diff));
                    }
                }
            });
        around(&mut || {
            print_file_errors(&unread);
            say_escaped(escaped);
        });
        let code = if unread.fatal_errors > 0 {
            2
        } else {
            u8::from(diffed && !args.exit_zero)
        };
        return Ok(Finished {
            totals,
            code,
            stdin_unfixed: false,
        });
    }
    let code = std::cell::Cell::new(0u8);
    let left = std::cell::RefCell::new(already);
    let write_failed_cell = std::cell::Cell::new(false);
    // Standard input's fixed document goes to standard output when its turn comes (it waited in
    // a temporary file), so the report goes to standard error (or to --output-file).
    let reads_stdin = args.input.paths.iter().any(|p| p.as_os_str() == "-");
    let document_written = std::cell::Cell::new(false);
    let document_failed = std::cell::RefCell::new(None);
    let totals_cell = std::cell::RefCell::new(Totals::default());
    let report = |out: &mut dyn std::io::Write| {
        let (written, unread) = crate::check::run_ordered_with(
            inputs,
            std::mem::take(&mut *left.borrow_mut()),
            load,
            per_file,
            file_done,
            |files| {
                let unread = files.unread();
                let files = files.inspect(|f| {
                    if let Some(error) = take_note(f) {
                        unread.borrow_mut().errors.push(error);
                        write_failed_cell.set(true);
                    }
                    totals_cell.borrow_mut().add(f);
                    if let Some(document) = &f.fixes.stdout {
                        document_written.set(true);
                        around(&mut || {
                            let mut out = std::io::stdout().lock();
                            if let Err(e) = document.copy_to(&mut out).and_then(|_| out.flush())
                                && e.kind() != std::io::ErrorKind::BrokenPipe
                            {
                                *document_failed.borrow_mut() = Some(e.to_string());
                            }
                        });
                    }
                });
                super::report::write_streamed(
                    files,
                    unread,
                    args,
                    selections,
                    &|counted, unread| {
                        let c = if write_failed_cell.get() {
                            2
                        } else {
                            super::report::exit_code(args, counted, unread)
                        };
                        code.set(c);
                        i32::from(c)
                    },
                    out,
                )
            },
        );
        *left.borrow_mut() = unread;
        written
    };
    let written = match &args.output_file {
        None if reads_stdin => {
            // Not locked for the run: a worker may say something on standard error meanwhile.
            let mut out = std::io::BufWriter::new(std::io::stderr());
            match report(&mut out).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("cannot write the report: {e}"))
                }
                _ => Ok(()),
            }
        }
        file => stream_report_around(file.as_deref(), progress, report),
    };
    let unread = left.into_inner();
    around(&mut || print_file_errors(&unread));
    written?;
    if let Some(e) = document_failed.into_inner() {
        return Err(format!("cannot write the fixed document: {e}"));
    }
    Ok(Finished {
        totals: totals_cell.into_inner(),
        code: code.get(),
        stdin_unfixed: reads_stdin && !document_written.get(),
    })
}

/// The last line of a streamed fix run, and its exit code.
pub(super) fn finish_streamed(finished: Finished, args: &CheckArgs, fix: FixOptions) -> ExitCode {
    if finished.stdin_unfixed {
        // Whoever pipes through irilint must not take an empty output for a fixed document.
        eprintln!(
            "irilint: error: standard input was not fixed; nothing was written to standard output"
        );
        return ExitCode::from(2);
    }
    let reads_stdin = args.input.paths.iter().any(|p| p.as_os_str() == "-");
    if !args.quiet {
        let line = finished.totals.line(fix.output);
        if fix.output == FixOutput::Write
            && args.format == ReportFormat::Human
            && args.output_file.is_none()
            && !reads_stdin
        {
            emit(&format!("{line}\n"));
        } else {
            eprintln!("{line}");
        }
    }
    ExitCode::from(finished.code)
}
