//! SARIF 2.1.0 (`--format sarif`), as GitHub code scanning and other SARIF viewers read it.
//!
//! One run: the driver with every rule that ran (its doc as help), one result per diagnostic
//! located by a `uri` relative to `%SRCROOT%` (the current directory) and a region whose columns
//! count UTF-16 code units, `partialFingerprints` from the baseline key (stable when lines move),
//! and one invocation with the exit code and, as notifications, the files that could not be read.
//! Text from the input is shown with hidden characters as visible `⟨U+202E⟩` escapes; paths are
//! percent-encoded into URIs.

use std::borrow::Borrow;
use std::cell::{Cell, RefCell};

use serde::Serialize;
use serde_json::{Value, json};

use super::fingerprint::fingerprints;
use super::place::Places;
use super::{Later, Summary};
use crate::baseline::Baseline;
use crate::check::{FileOutcome, Run, RunOutcome};
use crate::diagnostic::{Diagnostic, Location};
use crate::iri::chars::escape_unsafe;
use crate::rules::{Rule, Severity};

/// The `uriBaseId` every relative `uri` is resolved against.
pub const SRCROOT: &str = "%SRCROOT%";

/// The `partialFingerprints` key of irilint's fingerprint (a hash of the baseline key).
pub const FINGERPRINT_KEY: &str = "irilintFindingHash/v1";

/// Where irilint's documentation lives (`informationUri`): the package's crate page.
const INFORMATION_URI: &str = "https://crates.io/crates/irilint";

/// What the SARIF log says about the run besides its findings.
pub struct RunFacts<'a> {
    /// Every rule that ran, in catalog order.
    pub rules: &'a [&'static Rule],
    /// The exit code the run ends with.
    pub exit_code: i32,
}

/// The top of a SARIF log.
#[derive(Serialize)]
struct Log<R: Serialize, V: Serialize> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: [SarifRun<R, V>; 1],
    version: &'static str,
}

/// The one run of a log, its results written one at a time. The invocation comes after them:
/// its exit code and notifications are known only once every file is checked
/// ([`crate::check::run_ordered`]).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun<R: Serialize, V: Serialize> {
    column_kind: &'static str,
    original_uri_base_ids: Value,
    results: R,
    invocations: V,
    tool: Value,
}

/// Writes the SARIF log of a run to `out`, one result at a time.
pub fn write(
    outcome: &RunOutcome,
    facts: &RunFacts<'_>,
    places: &Places,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let unread = RefCell::new(outcome.unread());
    write_files(
        outcome.files.iter(),
        &unread,
        facts.rules,
        &|_, _| facts.exit_code,
        places,
        out,
    )
    .map(|_| ())
}

/// The results of a run's files, written file by file as they come.
struct Results<'a, I> {
    files: super::FilesOnce<'a, I>,
    rules: &'a [&'static Rule],
    places: &'a Places,
}

impl<I: Iterator<Item = F>, F: Borrow<FileOutcome>> Serialize for Results<'_, I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let files = self.files.take::<S::Error>()?;
        let keyer = Baseline::in_current_dir();
        let mut seq = serializer.serialize_seq(None)?;
        for file in files {
            let file = file.borrow();
            let prints = fingerprints(&keyer, &file.path, &file.diagnostics);
            for (d, print) in file.diagnostics.iter().zip(prints) {
                seq.serialize_element(&result(d, &file.path, &print, self.rules, self.places))?;
            }
        }
        seq.end()
    }
}

/// Writes the SARIF log of the files `files` gives, in order, as each comes; `unread` (the
/// inputs not read) and `exit_code` (from the summary and them) are read after the last file.
/// `rules` are the rules that ran. Returns the run's summary.
pub fn write_files<F: Borrow<FileOutcome>>(
    files: impl Iterator<Item = F>,
    unread: &RefCell<Run<()>>,
    rules: &[&'static Rule],
    exit_code: &dyn Fn(&Summary, &Run<()>) -> i32,
    places: &Places,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Summary> {
    let summary = Cell::new(Summary::default());
    let unlisted = RefCell::new(Vec::new());
    let invocations = Later(|| {
        let unread = unread.borrow();
        let mut notifications: Vec<Value> = unread
            .errors
            .iter()
            .map(|e| (e, "error"))
            .chain(unread.skipped.iter().map(|e| (e, "note")))
            .map(|(e, level)| {
                json!({
                    "level": level,
                    "message": { "text": sentence(&escape_unsafe(&e.message)) },
                    "locations": [{ "physicalLocation": { "artifactLocation": artifact(&e.path, places) } }],
                })
            })
            .collect();
        notifications.extend(unlisted.borrow().iter().map(|u: &super::Unlisted| {
            json!({
                "level": level(u.severity),
                "message": { "text": sentence(&u.notice()) },
                "associatedRule": { "id": u.rule },
                "locations": [{ "physicalLocation": { "artifactLocation": artifact(&u.path, places) } }],
            })
        }));
        json!([{
            "executionSuccessful": true,
            "exitCode": exit_code(&summary.get(), &unread),
            "toolExecutionNotifications": notifications,
        }])
    });
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        runs: [SarifRun {
            column_kind: "utf16CodeUnits",
            original_uri_base_ids: json!({ SRCROOT: { "uri": directory_uri(places) } }),
            results: Results {
                files: super::FilesOnce::new(files, &summary, &unlisted),
                rules,
                places,
            },
            invocations,
            tool: json!({ "driver": {
                "name": "irilint",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules.iter().map(|r| descriptor(r)).collect::<Vec<_>>(),
            }}),
        }],
        version: "2.1.0",
    };
    crate::escaped_json::to_writer(&log, out)?;
    Ok(summary.get())
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A rule's `reportingDescriptor`: its doc is the help, its summary the short description.
fn descriptor(rule: &Rule) -> Value {
    let doc = super::visible_lines(rule.doc);
    json!({
        "id": rule.id,
        "name": friendly_name(rule),
        "shortDescription": { "text": sentence(&escape_unsafe(rule.summary())) },
        "fullDescription": { "text": sentence(&escape_unsafe(&what_it_does(rule.doc))) },
        "help": { "text": doc, "markdown": doc },
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": properties(rule),
    })
}

/// The rules whose findings are security problems, with GitHub code scanning's
/// `security-severity` (a CVSS-like score: 9.0 and up critical, 7.0 high, 4.0 medium, 0.1 low)
/// and the weakness (CWE) they are an instance of. A deceptive link is high (what it shows is
/// not where it goes); what a filter or parser may be led astray by is medium. Every rule of the
/// `lookalike` group is here: a host that imitates a popular domain, or a link whose text names
/// another site, ranks above a hidden character; a word mixing scripts, often innocent, is
/// medium. A link that runs something when clicked ranks highest.
const SECURITY: [(&str, &str, u32); 15] = [
    // CWE-451: user interface misrepresentation of critical information.
    ("bidi-formatting-character", "7.5", 451),
    ("invisible-character", "7.5", 451),
    ("percent-encoded-forbidden", "7.0", 451),
    ("link-text-mismatch", "8.0", 451),
    // CWE-1007: insufficient visual distinction of homoglyphs.
    ("lookalike-domain", "8.5", 1007),
    ("confusable", "7.5", 1007),
    ("confusable-delimiter", "7.5", 1007),
    ("spoof-pattern", "7.5", 1007),
    ("restricted-character", "7.0", 1007),
    ("mixed-script", "5.0", 1007),
    // CWE-176: improper handling of Unicode encoding (overlong forms pass filters).
    ("percent-overlong-utf8", "7.0", 176),
    // CWE-93: CRLF injection (a raw line feed or carriage return in a URL).
    ("control-character", "5.5", 93),
    // CWE-776: recursive entity references (billion laughs); CWE-611: external entities.
    ("xml-entity-limit", "5.5", 776),
    ("xml-external-entity", "5.5", 611),
    // CWE-749: exposed dangerous method (a PDF link that launches a program or runs a script
    // when clicked, where the reader expects a page to open): above a deceptive host, since the
    // click itself runs code.
    ("pdf-unsafe-action", "8.8", 749),
];

/// A rule's `properties`: its group as a tag, and for a security rule the tags `security` and
/// `external/cwe/cwe-N` and its `security-severity`, by which GitHub lists its findings as
/// security alerts.
fn properties(rule: &Rule) -> Value {
    match SECURITY.iter().find(|(id, _, _)| *id == rule.id) {
        Some((_, score, cwe)) => json!({
            "tags": [rule.group, "security", format!("external/cwe/cwe-{cwe}")],
            "security-severity": score,
        }),
        None => json!({ "tags": [rule.group] }),
    }
}

fn result(d: &Diagnostic, path: &str, print: &str, rules: &[&Rule], places: &Places) -> Value {
    let mut text = sentence(&escape_unsafe(&d.message));
    if let Some(help) = &d.help {
        text.push_str(" Help: ");
        text.push_str(&sentence(&escape_unsafe(help)));
    }
    let mut result = json!({
        "ruleId": d.rule,
        "level": level(d.severity),
        "message": { "text": text },
        "locations": [{ "physicalLocation": {
            "artifactLocation": artifact(path, places),
            "region": region(d.start, d.end),
        }}],
        "partialFingerprints": { FINGERPRINT_KEY: print },
    });
    if let Some(i) = rules.iter().position(|r| r.id == d.rule) {
        result["ruleIndex"] = json!(i);
    }
    if !d.related.is_empty() || !d.also.is_empty() {
        let also = d
            .also
            .iter()
            .take(crate::diagnostic::ALSO_SHOWN)
            .map(|&(start, end)| ("Also here.".to_string(), path, start, end));
        let related: Vec<Value> = d
            .related
            .iter()
            .map(|r| {
                (
                    sentence(&escape_unsafe(&r.label)),
                    r.path.as_deref().unwrap_or(path),
                    r.start,
                    r.end,
                )
            })
            .chain(also)
            .enumerate()
            .map(|(i, (text, file, start, end))| {
                json!({
                    "id": i,
                    "message": { "text": text },
                    "physicalLocation": {
                        "artifactLocation": artifact(file, places),
                        "region": region(start, end),
                    },
                })
            })
            .collect();
        result["relatedLocations"] = json!(related);
    }
    result
}

fn region(start: Location, end: Location) -> Value {
    json!({
        "startLine": start.line,
        "startColumn": start.column_utf16,
        "endLine": end.line,
        "endColumn": end.column_utf16,
    })
}

/// A relative `uri` with `uriBaseId` under the current directory, an absolute `file:` URI
/// elsewhere.
fn artifact(path: &str, places: &Places) -> Value {
    match places.relative(path) {
        Some(relative) => json!({ "uri": encode_path(&relative), "uriBaseId": SRCROOT }),
        None => {
            let absolute = crate::config::lexical_absolute(places.cwd(), path.as_ref());
            json!({ "uri": format!("file://{}", encode_path(&absolute.to_string_lossy())) })
        }
    }
}

/// The current directory as a `file:` URI ending in `/`, as `originalUriBaseIds` requires.
fn directory_uri(places: &Places) -> String {
    let mut path = encode_path(&places.cwd().to_string_lossy());
    if !path.ends_with('/') {
        path.push('/');
    }
    format!("file://{path}")
}

/// A path as a URI path: every byte but the unreserved characters, `/` and the sub-delimiters
/// percent-encoded — `%`, `:` (which would start a scheme), `?`, `#`, spaces, non-ASCII and
/// hidden characters included.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'/'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'@'
            );
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// SARIF's "friendly name", which must not be the id up to case: `bidi-formatting-character`
/// → `BidiFormattingCharacter`, but `confusable` → `LookalikeConfusable` (with its group).
fn friendly_name(rule: &Rule) -> String {
    let name = pascal_case(rule.id);
    if name.eq_ignore_ascii_case(rule.id) {
        pascal_case(rule.group) + &name
    } else {
        name
    }
}

/// `bidi-formatting-character` → `BidiFormattingCharacter`.
fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The first paragraph of the doc's "What it does" section, on one line; the summary when
/// there is none.
fn what_it_does(doc: &str) -> String {
    let paragraph: Vec<&str> = doc
        .lines()
        .skip_while(|l| l.trim() != "## What it does")
        .skip(1)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if paragraph.is_empty() {
        crate::rules::docs::summary(doc).to_string()
    } else {
        paragraph.join(" ")
    }
}

/// `text` ending with a full stop, as SARIF viewers expect of messages.
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['.', '!', '?']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_security_rule_exists_and_its_score_is_a_cvss_number() {
        for (id, score, _) in SECURITY {
            assert!(crate::rules::rule(id).is_some(), "{id} is not a rule");
            let n: f64 = score.parse().unwrap();
            assert!((0.1..=10.0).contains(&n), "{id}: {score}");
        }
    }

    #[test]
    fn every_lookalike_rule_is_a_security_rule() {
        for rule in crate::rules::RULES
            .iter()
            .filter(|r| r.group == "lookalike")
        {
            assert!(
                SECURITY.iter().any(|(id, _, _)| *id == rule.id),
                "{} has no security-severity",
                rule.id
            );
        }
    }

    #[test]
    fn paths_become_uri_paths_that_cannot_be_misread() {
        assert_eq!(encode_path("docs/a b.html"), "docs/a%20b.html");
        assert_eq!(encode_path("a:b/%41#?.md"), "a%3Ab/%2541%23%3F.md");
        assert_eq!(encode_path("caf\u{e9}/\u{202E}x"), "caf%C3%A9/%E2%80%AEx");
        assert_eq!(encode_path("x\u{1b}[31m"), "x%1B%5B31m");
    }

    #[test]
    fn names_and_sentences() {
        assert_eq!(
            pascal_case("bidi-formatting-character"),
            "BidiFormattingCharacter"
        );
        assert_eq!(sentence("a b"), "a b.");
        assert_eq!(sentence("a b.  "), "a b.");
        assert_eq!(
            what_it_does("# x\n\n> S\n\n## What it does\n\nOne\ntwo.\n\nThree.\n"),
            "One two."
        );
        assert_eq!(what_it_does("# x\n\n> S\n"), "S");
    }
}
