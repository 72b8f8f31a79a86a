//! GitLab Code Quality (`--format gitlab`): the JSON array of Code Climate issues GitLab reads
//! from a job's `artifacts:reports:codequality`.
//!
//! Severities map as error → `major`, warning → `minor`, info → `info` (`critical` and `blocker`
//! are left for what stops a release, which a configuration decides with `error`). The
//! fingerprint is the hashed baseline key, stable when lines move. Files that could not be read
//! are not code quality issues; they stay on standard error.

use serde::Serialize;

use super::Summary;
use super::fingerprint::fingerprints;
use super::place::Places;
use crate::baseline::Baseline;
use crate::check::{FileOutcome, RunOutcome};
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
    let mut out = Vec::new();
    write_files(outcome.files.iter(), places, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes the report of the files `files` gives, in order, one issue at a time as each file
/// comes ([`crate::check::run_ordered`]). Returns the run's summary.
pub fn write_files<F: std::borrow::Borrow<FileOutcome>>(
    files: impl Iterator<Item = F>,
    places: &Places,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Summary> {
    let summary = std::cell::Cell::new(Summary::default());
    let unlisted = std::cell::RefCell::new(Vec::new());
    let issues = Issues {
        files: super::FilesOnce::new(files, &summary, &unlisted),
        places,
    };
    crate::escaped_json::to_writer(&issues, out)?;
    Ok(summary.get())
}

/// The issues of a run's files as one array, written file by file.
struct Issues<'a, I> {
    files: super::FilesOnce<'a, I>,
    places: &'a Places,
}

impl<I: Iterator<Item = F>, F: std::borrow::Borrow<FileOutcome>> Serialize for Issues<'_, I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let files = self.files.take::<S::Error>()?;
        let keyer = Baseline::in_current_dir();
        let mut seq = serializer.serialize_seq(None)?;
        for file in files {
            let file = file.borrow();
            let path = escape_unsafe(&self.places.display(&file.path));
            let prints = fingerprints(&keyer, &file.path, &file.diagnostics);
            for (d, fingerprint) in file.diagnostics.iter().zip(prints) {
                seq.serialize_element(&Issue {
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
                })?;
            }
        }
        seq.end()
    }
}
