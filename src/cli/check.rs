//! `irilint check`: configuration, the run, the report and the exit code.

use std::process::ExitCode;

use super::args::CheckArgs;
use super::{emit, fail, use_color};
use crate::check::{self, CheckOptions, Run, RunOutcome};
use crate::iri::chars::escape_unsafe;
use crate::report::{self, ReportFormat, Summary, concise, human::HumanRenderer, json};
use crate::rules::Selection;
use crate::walk;

pub(super) fn run_check(args: CheckArgs) -> ExitCode {
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
