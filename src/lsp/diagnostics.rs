//! Checking an open document as `irilint check` would, and its findings as LSP diagnostics.

use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri};

use super::document::{Document, Misread};
use super::positions::Lines;
use crate::check::{CheckOptions, check_project, check_with};
use crate::config::{FileSettings, Resolver};
use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;
use crate::rules::Severity;
use crate::source::Source;

/// A document's findings at one version.
#[derive(Debug)]
pub struct Checked {
    /// The version they are for.
    pub version: i32,
    /// The findings, located in the document's text.
    pub diagnostics: Vec<Diagnostic>,
    /// The document as checked, when it was: its text is the editor's text at `version`
    /// (positions, code actions and hover read it).
    pub source: Option<Source>,
    /// Why it was not checked, if it was not (excluded, a format irilint does not read).
    pub skipped: Option<String>,
    /// Not checked because the editor's text contradicts the page's charset declaration.
    pub misread: Option<Misread>,
}

/// Checks `doc` with the settings its configuration gives it. A configuration error is
/// returned as a message and the defaults apply, so the editor keeps its diagnostics.
pub fn check(doc: &Document, resolver: &Resolver) -> (Checked, Option<String>) {
    let mut config_error = None;
    let (settings, excluded, configured_format) = match &doc.path {
        Some(path) => match resolver.resolve(path, false) {
            Ok(r) => (r.settings.as_ref().clone(), r.excluded, r.settings.format),
            Err(e) => {
                config_error = Some(e.to_string());
                (FileSettings::default(), false, None)
            }
        },
        None => (FileSettings::default(), false, None),
    };
    let mut checked = Checked {
        version: doc.version,
        diagnostics: Vec::new(),
        source: None,
        skipped: None,
        misread: None,
    };
    let format = configured_format.or_else(|| doc.format());
    let Some(format) = format else {
        checked.skipped = Some(format!(
            "irilint does not read `{}` documents",
            escape_unsafe(&doc.language_id)
        ));
        return (checked, config_error);
    };
    if excluded {
        checked.skipped = Some("excluded by the configuration".into());
        return (checked, config_error);
    }
    if let Some(misread) = doc.misread(format) {
        // Its findings would be the misreading's (mojibake everywhere), not the page's.
        checked.skipped = Some(misread.message(&doc.display()));
        checked.misread = Some(misread);
        return (checked, config_error);
    }
    let source = doc.source(format);
    let options = CheckOptions::new(&settings.selection);
    let mut outcome = [check_with(&source, &settings, &options)];
    check_project(&mut outcome, &options);
    let [outcome] = outcome;
    checked.diagnostics = outcome.diagnostics;
    checked.source = Some(source);
    (checked, config_error)
}

/// `d` as the protocol shows it: range in the negotiated encoding, rule id as the code, help
/// on a second line, related places; every character from the document escaped.
pub fn to_lsp(d: &Diagnostic, lines: &Lines<'_>, uri: &Uri) -> lsp_types::Diagnostic {
    let mut message = escape_unsafe(&d.message);
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(&escape_unsafe(help));
    }
    if let Some(rfc) = d.rfc {
        message.push_str(&format!(" (RFC 3987 §{rfc})"));
    }
    // Related places in the same document (an entity's declaration, another spelling); a
    // document is checked on its own here, so there are no others.
    let mut related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter(|r| r.path.is_none())
        .map(|r| DiagnosticRelatedInformation {
            location: Location::new(
                uri.clone(),
                lines.range(r.start.text_offset, r.end.text_offset),
            ),
            message: escape_unsafe(&r.label),
        })
        .collect();
    // The other places of the same problem in the same component.
    related.extend(
        d.also
            .iter()
            .take(crate::diagnostic::ALSO_SHOWN)
            .map(|(start, end)| DiagnosticRelatedInformation {
                location: Location::new(
                    uri.clone(),
                    lines.range(start.text_offset, end.text_offset),
                ),
                message: "also here".to_string(),
            }),
    );
    lsp_types::Diagnostic {
        range: lines.range(d.start.text_offset, d.end.text_offset),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.rule.to_string())),
        source: Some("irilint".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}
