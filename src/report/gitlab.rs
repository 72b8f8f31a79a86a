//! GitLab Code Quality (`--format gitlab`): the JSON array of Code Climate issues GitLab reads
//! from a job's `artifacts:reports:codequality`.
//!
//! Severities map as error → `major`, warning → `minor`, info → `info` (`critical` and `blocker`
//! are left for what stops a release, which a configuration decides with `error`). The
//! fingerprint is the hashed baseline key, stable when lines move. Files that could not be read
//! are not code quality issues; they stay on standard error.

use serde::Serialize;

use super::fingerprint::fingerprints;
use super::place::Places;
use crate::baseline::Baseline;
use crate::check::RunOutcome;
use crate::iri::chars::escape_unsafe;
use crate::rules::Severity;

#[derive(Serialize)]
struct Issue {
    #[serde(rename = "type")]
    kind: &'static str,
    check_name: &'static str,
    description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<Content>,
    categories: [&'static str; 1],
    fingerprint: String,
    severity: &'static str,
    location: IssueLocation,
}

#[derive(Serialize)]
struct Content {
    body: String,
}

#[derive(Serialize)]
struct IssueLocation {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// The Code Quality report of a run.
pub fn render(outcome: &RunOutcome, places: &Places) -> String {
    let keyer = Baseline::in_current_dir();
    let mut issues = Vec::new();
    for file in &outcome.files {
        let path = escape_unsafe(&places.display(&file.path));
        let prints = fingerprints(&keyer, &file.path, &file.diagnostics);
        for (d, fingerprint) in file.diagnostics.iter().zip(prints) {
            issues.push(Issue {
                kind: "issue",
                check_name: d.rule,
                description: escape_unsafe(&d.message),
                content: d.help.as_deref().map(|h| Content {
                    body: escape_unsafe(h),
                }),
                categories: ["Bug Risk"],
                fingerprint,
                severity: match d.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Info => "info",
                },
                location: IssueLocation {
                    path: path.clone(),
                    lines: Lines {
                        begin: d.start.line,
                        end: d.end.line,
                    },
                },
            });
        }
    }
    super::json::to_string(&issues)
}
