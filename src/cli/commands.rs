//! `irilint list`, `rules` and `explain`.

use std::process::ExitCode;

use super::args::{ListArgs, ListFormat};
use super::check::resolver;
use super::report::print_file_errors;
use super::{emit, fail, fail_fatal};
use crate::check;
use crate::config::CliSettings;
use crate::config::options::{OPTIONS, describe, option};
use crate::escaped_json;
use crate::list;
use crate::rules::{self, RULES, Rule, Selection, Severity};
use crate::walk;

pub(super) fn run_list(args: &ListArgs) -> ExitCode {
    let resolver = match resolver(&args.config, CliSettings::default()) {
        Ok(r) => r,
        Err(e) => return fail_fatal(e),
    };
    let walk_options = walk::WalkOptions {
        stdin_filename: args.input.stdin_filename.as_deref(),
        force_exclude: args.config.force_exclude,
        hidden: !args.input.no_hidden,
    };
    let walk = match walk::collect(&args.input.paths, &resolver, walk_options) {
        Ok(w) => w,
        Err(e) => return fail_fatal(e),
    };
    let mut run = check::for_each_source(&walk.inputs, &args.input.load_options(), |s, _| {
        list::list_source(s)
    });
    run.errors.splice(0..0, walk.errors);
    run.fatal_errors += walk.fatal_errors;
    print_file_errors(&run);
    match args.format {
        ListFormat::Json => emit(&list::render_json(&run)),
        ListFormat::Human => emit(&list::render_human(&run)),
    }
    if run.fatal_errors > 0 {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

pub(super) fn run_rules(format: ListFormat) -> ExitCode {
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
            emit(&escaped_json::to_string(&list));
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

pub(super) fn run_explain(id: &str) -> ExitCode {
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

pub(super) fn run_config(key: Option<&str>) -> ExitCode {
    match key {
        None => {
            let width = OPTIONS.iter().map(|o| o.name.len()).max().unwrap_or(0);
            let mut out = String::from(
                "Keys of irilint.toml, .irilint.toml or [tool.irilint] in pyproject.toml \
                 (`irilint config KEY` for one):\n\n",
            );
            for o in OPTIONS {
                out.push_str(&format!("  {:<width$}  {}\n", o.name, o.kind));
            }
            emit(&out);
            ExitCode::SUCCESS
        }
        Some(key) => match option(key) {
            Some(o) => {
                emit(&describe(o));
                ExitCode::SUCCESS
            }
            None => {
                let names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                fail(&format!(
                    "unknown key `{key}`; the keys are {}",
                    names.join(", ")
                ))
            }
        },
    }
}
