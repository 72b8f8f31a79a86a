//! `irilint check`: configuration, the run, the report and the exit code.

use std::path::Path;
use std::process::ExitCode;

use std::sync::Arc;

use std::io::IsTerminal;

use super::args::{CheckArgs, ColorChoice, ConfigArgs};
use super::output::{refuse_input, stream_report, stream_report_around};
use super::progress::{self, Progress};
use super::report::{exit_code, print_file_errors, write_body, write_streamed};
use super::{emit, fail, fail_fatal, use_color};
use crate::baseline::Baseline;
use crate::check::{self, CheckOptions, LoadOptions, Run, Variants};
use crate::config::{CliSettings, Resolver};
use crate::iri::chars::escape_unsafe;
use crate::report::{self, ReportFormat, Summary, concise, human::HumanRenderer};
use crate::rules::Selection;
use crate::walk;
use crate::walk::{FatalError, WalkOptions};

/// The configuration resolver the arguments describe; the command line's selectors are checked
/// here, so that a typo in them is reported before any file is read.
pub(super) fn resolver(config: &ConfigArgs, cli: CliSettings) -> Result<Arc<Resolver>, FatalError> {
    Selection::from_selectors(&cli.select, &cli.extend_select, &cli.ignore)
        .map_err(|e| FatalError::Path(e.to_string()))?;
    Ok(Arc::new(Resolver::new(config.discovery(), cli)?))
}

pub(super) fn run_check(args: CheckArgs) -> ExitCode {
    let cli = CliSettings {
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
    };
    let resolver = match resolver(&args.config, cli) {
        Ok(r) => r,
        Err(e) => return fail_fatal(e),
    };
    if let Some(path) = &args.show_settings {
        return match resolver.show(path) {
            Ok(text) => {
                emit(&text);
                ExitCode::SUCCESS
            }
            Err(e) => fail_fatal(e.into()),
        };
    }
    let baseline = match &args.baseline {
        Some(file) => match Baseline::read(file) {
            Ok(b) => Some(b),
            Err(message) => return fail(&message),
        },
        None => None,
    };
    if let Some(n) = args.jobs
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
    {
        return fail(&format!("cannot start {n} threads: {e}"));
    }
    let walk_options = WalkOptions {
        stdin_filename: args.input.stdin_filename.as_deref(),
        force_exclude: args.config.force_exclude,
        hidden: !args.input.no_hidden,
    };
    let walk = match walk::collect(&args.input.paths, &resolver, walk_options) {
        Ok(w) => w,
        Err(e) => return fail_fatal(e),
    };
    if walk.inputs.is_empty() && walk.errors.is_empty() && !args.quiet {
        // "No problems found in 0 files" alone reads as a pass; say that nothing was checked.
        eprintln!(
            "irilint: warning: no file to check: nothing under the paths given has an extension irilint reads (.html, .md, .rst, .adoc, .txt, .xml, ...: the book's \"Formats\" page, https://github.com/irilint/irilint/blob/main/docs/src/formats.md), or all of it is excluded"
        );
    }
    if let Err(message) = refuse_to_replace_a_read_file(&args, &resolver, &walk.inputs) {
        return fail(&message);
    }
    let writing = args.write_baseline.is_some();
    let to_file = args.output_file.is_some();
    // A report written to a file gets colour only when asked for.
    let color = match args.color {
        ColorChoice::Auto if to_file => false,
        choice => use_color(choice),
    };
    let renderer = HumanRenderer::new(color);
    let render_human =
        |s: &crate::source::Source, d: &[crate::diagnostic::Diagnostic]| renderer.render_file(s, d);
    let render_concise = |s: &crate::source::Source, d: &[crate::diagnostic::Diagnostic]| {
        concise::render_file(&s.path, d)
    };
    let fixing = super::fix::options(&args);
    let diffing = fixing.is_some_and(|f| f.output == crate::fix::FixOutput::Diff);
    let render: Option<check::Render<'_>> = match args.format {
        _ if writing || diffing => None,
        ReportFormat::Human => Some(&render_human),
        ReportFormat::Concise => Some(&render_concise),
        _ => None,
    };
    let project_human =
        |path: &str, d: &[crate::diagnostic::Diagnostic]| renderer.render_detached(path, d);
    let project_concise = concise::render_file;
    let render_project: Option<check::RenderProject<'_>> = match args.format {
        _ if writing || diffing => None,
        ReportFormat::Human => Some(&project_human),
        ReportFormat::Concise => Some(&project_concise),
        _ => None,
    };
    let default_selection = Selection::default();
    let options = CheckOptions {
        selection: &default_selection,
        baseline: baseline.as_ref(),
        render,
        render_project,
        baseline_keys: args.write_baseline.is_some(),
        variants: Variants::All,
    };
    // `--fix` of standard input writes its report on standard error, where the bar would be.
    let stdin_fix = super::fix::options(&args)
        .is_some_and(|f| f.output == crate::fix::FixOutput::Write)
        && args.input.paths.iter().any(|p| p.as_os_str() == "-");
    let progress = progress::wanted(
        std::io::stderr().is_terminal(),
        args.quiet || writing || stdin_fix,
        args.format,
        to_file,
    )
    .then(|| Progress::new(walk.inputs.len()));
    let file_done = |iris: usize| {
        if let Some(p) = &progress {
            p.file_done(iris);
        }
    };
    let load = LoadOptions {
        // --fix and --diff rewrite the bytes as read.
        keep_bytes: fixing.is_some(),
        ..args.input.load_options()
    };
    // The report is written while the files are checked, file by file in order. The
    // project-level rules need every file first: a first pass finds their findings, each
    // file's outcome dropped once its IRIs' records are taken, and the second one reports
    // (standard input, read once, is kept in a temporary file for the reads after the first).
    // (JUnit's head counts what follows: its cases wait in a temporary file.)
    let two_passes = walk.inputs.iter().any(|e| {
        e.settings
            .selection
            .severity_of(crate::rules::equivalence::EQUIVALENT_VARIANTS.id)
            .is_some()
    });
    let reads_stdin = args.input.paths.iter().any(|p| p.as_os_str() == "-");
    // With two passes, the first one's workers hand on each IRI's hashes as it is checked,
    // and the report's keep nothing of them: the files' IRIs are not held.
    let options = CheckOptions {
        variants: if two_passes {
            Variants::Nothing
        } else {
            Variants::All
        },
        ..options
    };
    let load = LoadOptions {
        // (`--diff` reads each input once.) `--fix` puts standard input's fixed document there
        // once the first pass has fixed it: the passes after it read what was written.
        stdin_kept: (two_passes && reads_stdin && !diffing).then(Default::default),
        ..load
    };
    // What the first pass of a run with project-level rules checks: nothing rendered.
    let quiet = CheckOptions {
        selection: &default_selection,
        baseline: baseline.as_ref(),
        render: None,
        render_project: None,
        baseline_keys: false,
        variants: Variants::Hashes,
    };
    // What `--fix` did to each file in the first pass, taken back in the second.
    let fixed_first = std::sync::Mutex::new(std::collections::HashMap::new());
    let project = two_passes.then(|| match fixing {
        // `--diff` reports no finding, only diffs: it needs no first pass.
        Some(fix) if fix.output == crate::fix::FixOutput::Write => {
            let per_file = |loaded: check::Loaded, settings: &crate::config::FileSettings| {
                let mut file = crate::fix::run::fix_file(loaded, settings, &quiet, fix);
                if let (Some(document), Some(kept)) = (&file.fixes.stdout, &load.stdin_kept)
                    && let Err(message) = kept.replace(document)
                {
                    // Read again as it came in, it would be checked unfixed: not written.
                    file.fixes.stdout = None;
                    file.fixes.error = Some(message);
                }
                file
            };
            check::first_pass(&walk.inputs, &load, &per_file, |f| {
                fixed_first
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(f.path.clone(), f.fixes.clone());
            })
        }
        Some(_) => check::ProjectFindings::default(),
        None => {
            let per_file = |loaded: check::Loaded, settings: &crate::config::FileSettings| {
                check::check_with(&loaded.source, settings, &quiet)
            };
            check::first_pass(&walk.inputs, &load, &per_file, |_| {})
        }
    });
    if let Some(project) = &project
        && !args.quiet
    {
        for path in project.changed() {
            eprintln!(
                "irilint: warning: {} changed while the run read it: the equivalent-variants findings that name its IRIs are left out; run again",
                escape_unsafe(path)
            );
        }
    }
    if let Some(message) = project.as_ref().and_then(|p| p.failed()) {
        eprintln!("irilint: error: {message}");
    }
    // Each file checked, with its project-level findings when there is a first pass.
    // A file's project-level findings that could not be read back are said once.
    let unread_findings = std::sync::Once::new();
    let add_project = |project: &check::ProjectFindings, file: &mut check::FileOutcome| {
        if let Err(message) = project.add_to(file, &options) {
            unread_findings.call_once(|| eprintln!("irilint: error: {message}"));
        }
    };
    let check_file = |loaded: check::Loaded, settings: &crate::config::FileSettings| {
        let mut file = check::check_with(&loaded.source, settings, &options);
        if let Some(project) = &project {
            add_project(project, &mut file);
        }
        file
    };
    // The files met while walking that cannot be read, reported with the run's.
    let already = Run {
        files: Vec::new(),
        errors: walk.errors,
        skipped: Vec::new(),
        fatal_errors: walk.fatal_errors,
    };
    let selections: Vec<&Selection> = walk.inputs.iter().map(|e| &e.settings.selection).collect();
    // (A report to `--output-file -` would be mixed into standard input's fixed document.)
    let report_to_stdout = args.output_file.as_deref() == Some(Path::new("-"));
    if let Some(fix) = fixing
        && !writing
        && (fix.output == crate::fix::FixOutput::Diff || !reads_stdin || !report_to_stdout)
    {
        let per_file = |loaded: check::Loaded, settings: &crate::config::FileSettings| {
            let Some(project) = project
                .as_ref()
                .filter(|_| fix.output == crate::fix::FixOutput::Write)
            else {
                return crate::fix::run::fix_file(loaded, settings, &options, fix);
            };
            // Fixed in the first pass: checked again as it now is, with the project's findings.
            let fixes = fixed_first
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&loaded.source.path)
                .unwrap_or_default();
            let mut file = crate::fix::run::recheck(loaded, settings, &options, fix, fixes);
            add_project(project, &mut file);
            file
        };
        let streamed = super::fix::streamed(
            &walk.inputs,
            already,
            &load,
            &per_file,
            &file_done,
            &args,
            fix,
            &selections,
            progress.as_ref(),
        );
        if let Some(p) = &progress {
            p.finish();
        }
        let finished = match streamed {
            Ok(finished) => finished,
            Err(message) => return fail(&message),
        };
        if let (Some(baseline), Some(file)) = (&baseline, &args.baseline)
            && let Err(message) = stale_baseline(baseline, file, &args)
        {
            return fail(&message);
        }
        return super::fix::finish_streamed(finished, &args, fix);
    }
    if let Some(file) = &args.write_baseline
        && fixing.is_none()
    {
        // Only the keys are kept, each file's outcome dropped once its keys are taken.
        let (writer, unread) = check::run_ordered_with(
            &walk.inputs,
            already,
            &load,
            &check_file,
            &file_done,
            |files| {
                let mut writer = crate::baseline::Writer::new(file);
                for f in files {
                    writer.add(&f.path, &f.diagnostics, &f.unlisted_keys);
                }
                writer
            },
        );
        if let Some(p) = &progress {
            p.finish();
        }
        print_file_errors(&unread);
        return wrote_baseline(writer.finish(), file, &args, unread.fatal_errors > 0);
    }
    if fixing.is_none() && !writing {
        let code = std::cell::Cell::new(0u8);
        let summary = std::cell::Cell::new(Summary::default());
        let unread = std::cell::RefCell::new(Run::default());
        let report = |out: &mut dyn std::io::Write| {
            let (written, left) = check::run_ordered_with(
                &walk.inputs,
                std::mem::take(&mut *unread.borrow_mut()),
                &load,
                &check_file,
                &file_done,
                |files| {
                    let unread = files.unread();
                    write_streamed(
                        files,
                        unread,
                        &args,
                        &selections,
                        &|counted, unread| {
                            let c = exit_code(&args, counted, unread);
                            code.set(c);
                            summary.set(*counted);
                            i32::from(c)
                        },
                        out,
                    )
                },
            );
            *unread.borrow_mut() = left;
            written
        };
        *unread.borrow_mut() = already;
        let written = stream_report_around(args.output_file.as_deref(), progress.as_ref(), report);
        if let Some(p) = &progress {
            p.finish();
        }
        print_file_errors(&unread.borrow());
        if let Err(message) = written {
            return fail(&message);
        }
        if let (Some(baseline), Some(file)) = (&baseline, &args.baseline)
            && let Err(message) = stale_baseline(baseline, file, &args)
        {
            return fail(&message);
        }
        summary_to_stderr(&args, &summary.get());
        return ExitCode::from(code.get());
    }
    let mut outcome = match fixing {
        Some(fix) => crate::fix::run::run(&walk.inputs, &load, &options, fix),
        None => check::run_with_progress(&walk.inputs, &load, &options, &file_done),
    };
    if let Some(p) = &progress {
        p.finish();
    }
    outcome.errors.splice(0..0, already.errors);
    outcome.fatal_errors += already.fatal_errors;
    if let (Some(baseline), Some(file)) = (&baseline, &args.baseline)
        && let Err(message) = stale_baseline(baseline, file, &args)
    {
        return fail(&message);
    }
    if let Some(fix) = fixing {
        return super::fix::finish(outcome, &args, fix, &selections);
    }
    if let Some(file) = &args.write_baseline {
        print_file_errors(&outcome);
        let files = outcome.files.iter().map(|f| {
            (
                f.path.as_str(),
                f.diagnostics.as_slice(),
                f.unlisted_keys.as_slice(),
            )
        });
        let fatal = outcome.fatal_errors > 0;
        return wrote_baseline(Baseline::write(file, files), file, &args, fatal);
    }
    // Unreadable files go to stderr, and into the report too where its format has a place.
    print_file_errors(&outcome);
    let summary = Summary::of(&outcome);
    let code = exit_code(&args, &summary, &outcome.unread());
    let report = |out: &mut dyn std::io::Write| {
        write_body(&outcome, &args, selections.iter().copied(), code, out)
    };
    if let Err(message) = stream_report(args.output_file.as_deref(), report) {
        return fail(&message);
    }
    summary_to_stderr(&args, &summary);
    ExitCode::from(code)
}

/// Says how many findings the baseline `file` got, or why it could not be written. A named input
/// that could not be read (`fatal`) fails the run all the same: its findings are not in it.
fn wrote_baseline(
    written: Result<usize, String>,
    file: &Path,
    args: &CheckArgs,
    fatal: bool,
) -> ExitCode {
    match written {
        Ok(n) => {
            if !args.quiet {
                eprintln!(
                    "irilint: wrote {n} finding{} to the baseline {}",
                    if n == 1 { "" } else { "s" },
                    escape_unsafe(&file.display().to_string())
                );
            }
            if fatal {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(message) => fail(&message),
    }
}

/// A report written to a file is not in the CI log: the summary is, so that a failing step
/// says why (how many errors, and where the report is).
fn summary_to_stderr(args: &CheckArgs, summary: &Summary) {
    if let Some(file) = args.output_file.as_deref().filter(|f| *f != Path::new("-"))
        && !args.quiet
    {
        eprintln!(
            "{} Report: {}",
            report::summary_line(summary),
            escape_unsafe(&file.display().to_string())
        );
    }
}

/// Says how many entries of the baseline `file` matched nothing in this run, or with
/// `--prune-baseline` drops them from it.
fn stale_baseline(baseline: &Baseline, file: &Path, args: &CheckArgs) -> Result<(), String> {
    let shown = escape_unsafe(&file.display().to_string());
    let entries = |n: usize| format!("{n} entr{}", if n == 1 { "y" } else { "ies" });
    if args.prune_baseline {
        let dropped = baseline.prune(file)?;
        if !args.quiet {
            eprintln!(
                "irilint: pruned {} from the baseline {shown}",
                entries(dropped)
            );
        }
        return Ok(());
    }
    let stale = baseline.stale();
    if stale.total() > 0 && !args.quiet {
        let gone = if stale.gone > 0 {
            format!(" ({} of files that no longer exist)", stale.gone)
        } else {
            String::new()
        };
        eprintln!(
            "irilint: notice: {} of the baseline {shown} {} no finding any more{gone}: fixed, or the file is gone; drop {} with `--prune-baseline`, or a problem that comes back stays hidden",
            entries(stale.total()),
            if stale.total() == 1 {
                "matches"
            } else {
                "match"
            },
            if stale.total() == 1 { "it" } else { "them" },
        );
    }
    Ok(())
}

/// An error when `--output-file` or `--write-baseline` names a file this run reads (a
/// document, the baseline, a configuration file, the file `--stdin-filename` names): nothing
/// is written then.
fn refuse_to_replace_a_read_file(
    args: &CheckArgs,
    resolver: &Resolver,
    inputs: &[walk::Entry],
) -> Result<(), String> {
    let mut read: Vec<(String, std::path::PathBuf)> = Vec::new();
    if let Some(b) = &args.baseline {
        read.push(("the --baseline file".into(), b.clone()));
    }
    for c in resolver.files_read() {
        read.push(("a configuration file".into(), c));
    }
    if let Some(name) = &args.input.stdin_filename
        && args.input.paths.iter().any(|p| p.as_os_str() == "-")
    {
        read.push(("the file --stdin-filename names".into(), name.into()));
    }
    for (option, file) in [
        ("--output-file", &args.output_file),
        ("--write-baseline", &args.write_baseline),
    ] {
        if let Some(file) = file {
            refuse_input(option, file, inputs, &read)?;
        }
    }
    Ok(())
}
