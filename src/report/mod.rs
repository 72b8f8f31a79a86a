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

use crate::check::{FileOutcome, RunOutcome};
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
    ran_rules(ran)
}

/// The rules any of `selections` enables, in catalog order: every rule a diagnostic can name
/// (what a report written before the findings are known lists).
pub fn rules_enabled<'a>(
    selections: impl IntoIterator<Item = &'a Selection>,
) -> Vec<&'static Rule> {
    rules_that_ran(selections, &RunOutcome::default())
}

fn ran_rules(ran: Vec<bool>) -> Vec<&'static Rule> {
    RULES
        .iter()
        .zip(ran)
        .filter_map(|(r, ran)| ran.then_some(r))
        .collect()
}

/// A value serialized when its turn comes, computed then: a report's summary, written after
/// the findings it counts.
pub(crate) struct Later<F>(pub F);

impl<F: Fn() -> T, T: serde::Serialize> serde::Serialize for Later<F> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.0)().serialize(serializer)
    }
}

/// Findings a file has beyond those it lists ([`crate::check::MAX_LISTED`]): its path, the
/// rule, the severity and how many.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unlisted {
    /// The file.
    pub path: String,
    /// The rule id.
    pub rule: &'static str,
    /// Their severity.
    pub severity: Severity,
    /// How many.
    pub count: usize,
}

impl Unlisted {
    /// What `file` does not list.
    pub fn of(file: &FileOutcome) -> impl Iterator<Item = Unlisted> + '_ {
        file.unlisted
            .iter()
            .map(|&(rule, severity, count)| Unlisted {
                path: file.path.clone(),
                rule,
                severity,
                count,
            })
    }

    /// The notice irilint prints on stderr.
    pub fn notice(&self) -> String {
        format!(
            "{}: {} more {} finding{} of {} not listed: a file lists at most {} (fix or exclude the file)",
            crate::iri::chars::escape_unsafe(&self.path),
            self.count,
            self.severity.name(),
            if self.count == 1 { "" } else { "s" },
            self.rule,
            crate::check::MAX_LISTED
        )
    }
}

/// A run's files, to be written once, in order, as they come ([`crate::check::run_ordered`]),
/// each counted into `summary` (and what it does not list into `unlisted`) when it is taken.
pub(crate) struct FilesOnce<'s, I> {
    files: std::cell::Cell<Option<I>>,
    summary: &'s std::cell::Cell<Summary>,
    unlisted: &'s std::cell::RefCell<Vec<Unlisted>>,
}

impl<'s, I, F> FilesOnce<'s, I>
where
    I: Iterator<Item = F>,
    F: std::borrow::Borrow<FileOutcome>,
{
    pub(crate) fn new(
        files: I,
        summary: &'s std::cell::Cell<Summary>,
        unlisted: &'s std::cell::RefCell<Vec<Unlisted>>,
    ) -> Self {
        FilesOnce {
            files: std::cell::Cell::new(Some(files)),
            summary,
            unlisted,
        }
    }

    /// Each file in turn, counted; an error the second time (a report is written once).
    pub(crate) fn take<E: serde::ser::Error>(&self) -> Result<impl Iterator<Item = F> + '_, E> {
        let files = self
            .files
            .take()
            .ok_or_else(|| E::custom("a stream is serialized once"))?;
        Ok(files.inspect(|f| {
            let f = f.borrow();
            let mut s = self.summary.get();
            s.add(f);
            self.summary.set(s);
            self.unlisted.borrow_mut().extend(Unlisted::of(f));
        }))
    }
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
        let mut s = Summary::default();
        for f in &outcome.files {
            s.add(f);
        }
        s
    }

    /// Counts one more file.
    pub fn add(&mut self, f: &FileOutcome) {
        self.files += 1;
        self.iris += f.iris;
        self.baselined += f.baselined;
        self.suppressed += f.suppressed;
        let (errors, warnings, infos) = f.counts();
        self.errors += errors;
        self.warnings += warnings;
        self.infos += infos;
    }
}

/// Diagnostics per rule, most frequent first (for `--statistics`).
pub fn statistics(outcome: &RunOutcome) -> Vec<(&'static str, Severity, usize)> {
    let mut counts = Statistics::default();
    for f in &outcome.files {
        counts.add(f);
    }
    counts.sorted()
}

/// Diagnostics per rule, counted file by file.
#[derive(Debug, Default)]
pub struct Statistics(Vec<(&'static str, Severity, usize)>);

impl Statistics {
    /// Counts the diagnostics of one more file.
    pub fn add(&mut self, f: &FileOutcome) {
        for d in &f.diagnostics {
            match self.0.iter_mut().find(|(r, _, _)| *r == d.rule) {
                Some(entry) => entry.2 += 1,
                None => self.0.push((d.rule, d.severity, 1)),
            }
        }
    }

    /// Rule, severity (of the first) and count, most frequent first.
    pub fn sorted(mut self) -> Vec<(&'static str, Severity, usize)> {
        self.0.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
        self.0
    }
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

/// [`summary_line`] for a run in which `unread` paths could not be read: it does not say "No
/// problems found" of a run that fails (exit code 2).
pub fn summary_line_with_unread(s: &Summary, unread: usize) -> String {
    let line = summary_line(s);
    if unread == 0 {
        return line;
    }
    let could_not = format!("{} could not be read", plural(unread, "path", "paths"));
    match line.strip_prefix("No problems found in ") {
        Some(rest) => format!("{could_not}; no problems found in the {rest}"),
        None => format!("{} {could_not}.", line),
    }
}
