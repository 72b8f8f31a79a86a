//! Output: `human` (miette), `json` (the versioned contract of DESIGN.md), `concise`, and the
//! formats CI systems read: `sarif`, `github`, `junit`, `gitlab`.

pub mod concise;
pub mod fingerprint;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod place;
pub mod sarif;

use crate::check::RunOutcome;
use crate::rules::{RULES, Rule, Selection, Severity};

/// How `check` prints its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// miette's graphical diagnostics.
    Human,
    /// The JSON report.
    Json,
    /// `path:line:col: severity[rule] message`, one per line.
    Concise,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// JUnit XML, for Jenkins and GitLab test reports.
    Junit,
    /// GitLab Code Quality JSON.
    Gitlab,
}

impl ReportFormat {
    /// Every format, by name, in the order `--help` lists them.
    pub const ALL: [(&'static str, ReportFormat); 7] = [
        ("human", ReportFormat::Human),
        ("json", ReportFormat::Json),
        ("concise", ReportFormat::Concise),
        ("sarif", ReportFormat::Sarif),
        ("github", ReportFormat::Github),
        ("junit", ReportFormat::Junit),
        ("gitlab", ReportFormat::Gitlab),
    ];

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<ReportFormat> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    /// Whether programs read it (no progress bar, no summary line, nothing else on stdout).
    pub fn is_machine(self) -> bool {
        !matches!(self, ReportFormat::Human | ReportFormat::Concise)
    }
}

/// `s` with every character unsafe to display written as a visible `⟨U+202E⟩`, except line
/// feeds, which stay: for multi-line text of our own (rule docs, message and help) that each
/// format then escapes its own way.
pub fn visible_lines(s: &str) -> String {
    let lines: Vec<String> = s
        .split('\n')
        .map(crate::iri::chars::escape_unsafe)
        .collect();
    lines.join("\n")
}

/// The rules that ran: those any file's selection enables, and any a diagnostic names, in
/// catalog order.
pub fn rules_that_ran<'a>(
    selections: impl IntoIterator<Item = &'a Selection>,
    outcome: &RunOutcome,
) -> Vec<&'static Rule> {
    let mut ran = vec![false; RULES.len()];
    let mut mark = |id: &str| {
        if let Some(i) = RULES.iter().position(|r| r.id == id) {
            ran[i] = true;
        }
    };
    for selection in selections {
        for (rule, _) in selection.enabled() {
            mark(rule.id);
        }
    }
    for d in outcome.files.iter().flat_map(|f| &f.diagnostics) {
        mark(d.rule);
    }
    RULES
        .iter()
        .zip(ran)
        .filter_map(|(r, ran)| ran.then_some(r))
        .collect()
}

/// Counts over a whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files checked.
    pub files: usize,
    /// IRIs found in them.
    pub iris: usize,
    /// Error-level diagnostics.
    pub errors: usize,
    /// Warning-level diagnostics.
    pub warnings: usize,
    /// Info-level diagnostics.
    pub infos: usize,
    /// Findings held back by the baseline (`--baseline`).
    pub baselined: usize,
    /// Findings silenced by inline suppression directives.
    pub suppressed: usize,
}

impl Summary {
    /// Counts the outcome of a run.
    pub fn of(outcome: &RunOutcome) -> Summary {
        let mut s = Summary {
            files: outcome.files.len(),
            ..Summary::default()
        };
        for f in &outcome.files {
            s.iris += f.iris;
            s.baselined += f.baselined;
            s.suppressed += f.suppressed;
            for d in &f.diagnostics {
                match d.severity {
                    Severity::Error => s.errors += 1,
                    Severity::Warning => s.warnings += 1,
                    Severity::Info => s.infos += 1,
                }
            }
        }
        s
    }
}

/// Diagnostics per rule, most frequent first (for `--statistics`).
pub fn statistics(outcome: &RunOutcome) -> Vec<(&'static str, Severity, usize)> {
    let mut counts: Vec<(&'static str, Severity, usize)> = Vec::new();
    for d in outcome.files.iter().flat_map(|f| &f.diagnostics) {
        match counts.iter_mut().find(|(r, _, _)| *r == d.rule) {
            Some(entry) => entry.2 += 1,
            None => counts.push((d.rule, d.severity, 1)),
        }
    }
    counts.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    counts
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "Found 2 errors and 1 warning in 3 files (45 IRIs checked)."
pub fn summary_line(s: &Summary) -> String {
    let mut parts = Vec::new();
    if s.errors > 0 {
        parts.push(plural(s.errors, "error", "errors"));
    }
    if s.warnings > 0 {
        parts.push(plural(s.warnings, "warning", "warnings"));
    }
    if s.infos > 0 {
        parts.push(plural(s.infos, "info", "infos"));
    }
    let files = plural(s.files, "file", "files");
    let mut iris = format!("{} checked", plural(s.iris, "IRI", "IRIs"));
    if s.baselined > 0 {
        iris.push_str(&format!(", {} baselined", s.baselined));
    }
    if s.suppressed > 0 {
        iris.push_str(&format!(", {} suppressed", s.suppressed));
    }
    if parts.is_empty() {
        format!("No problems found in {files} ({iris}).")
    } else {
        format!("Found {} in {files} ({iris}).", parts.join(" and "))
    }
}
