//! A configuration that cannot be used: what is wrong, where in which file, and what to write.
//! Rendered by miette with the file's lines, so the user sees `irilint.toml:3:10` and the value
//! underlined.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};

use crate::iri::chars::{escape_unsafe, is_unsafe_to_display};

/// Why a configuration (or a baseline) cannot be used; the run stops with exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The file at fault.
    pub path: PathBuf,
    /// Its text, when it was read.
    pub text: Option<Arc<str>>,
    /// The bytes of `text` at fault.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Whether the file's lines may be shown around the span: not for a file that is not TOML
    /// at all (an `extend` may name any file of the repository, and its lines may be secrets).
    pub quote: bool,
}

impl ConfigError {
    /// An error about the whole file (it cannot be read, `extend` loops).
    pub fn file(path: &Path, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: path.to_path_buf(),
            text: None,
            span: None,
            message: message.into(),
            help: None,
            quote: true,
        }
    }

    /// An error at `span` of the file's `text`.
    pub fn at(
        path: &Path,
        text: &Arc<str>,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            path: path.to_path_buf(),
            text: Some(text.clone()),
            span: Some(span),
            message: message.into(),
            help: None,
            quote: true,
        }
    }

    /// The same error, located but without the file's lines.
    pub fn unquoted(mut self) -> ConfigError {
        self.quote = false;
        self
    }

    /// Adds advice.
    pub fn with_help(mut self, help: impl Into<String>) -> ConfigError {
        self.help = Some(help.into());
        self
    }

    /// The file's path as shown: relative to the current directory when it is below it.
    pub fn shown_path(&self) -> String {
        let cwd = std::env::current_dir().unwrap_or_default();
        self.path
            .strip_prefix(&cwd)
            .unwrap_or(&self.path)
            .display()
            .to_string()
    }

    /// `path:line:column` of the error's start (1-based, columns in characters), or the path.
    pub fn location(&self) -> String {
        let path = self.shown_path();
        match (&self.text, &self.span) {
            (Some(text), Some(span)) => {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                format!("{path}:{line}:{column}")
            }
            _ => path.to_string(),
        }
    }

    /// The error as printed on stderr: a headline with the location, then the file's lines with
    /// the span underlined. Nothing from the file is ever printed raw if it is unsafe to show.
    pub fn render(&self, color: bool) -> String {
        let (Some(text), Some(span), true) = (&self.text, &self.span, self.quote) else {
            let mut out = format!(
                "irilint: error: {}: {}",
                escape_unsafe(&self.location()),
                escape_unsafe(&self.message)
            );
            out.push('\n');
            if let Some(help) = &self.help {
                out.push_str(&format!("  help: {}\n", escape_unsafe(help)));
            }
            return out;
        };
        let (shown, span) = safe_text(text, span.clone());
        let mut diagnostic = MietteDiagnostic::new(escape_unsafe(&self.message))
            .with_code("irilint::config")
            .with_label(LabeledSpan::at(span, "here"));
        if let Some(help) = &self.help {
            diagnostic = diagnostic.with_help(escape_unsafe(help));
        }
        let source =
            NamedSource::new(escape_unsafe(&self.shown_path()), shown).with_language("toml");
        let report = miette::Report::new(diagnostic).with_source_code(source);
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = format!(
            "irilint: error: invalid configuration at {}\n",
            escape_unsafe(&self.location())
        );
        let _ = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .render_report(&mut out, report.as_ref());
        out
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The file's text with characters unsafe to display escaped, and `span` moved with it.
fn safe_text(text: &str, span: Range<usize>) -> (String, Range<usize>) {
    if !text
        .chars()
        .any(|c| is_unsafe_to_display(c) && !matches!(c, '\n' | '\r' | '\t'))
    {
        return (text.to_string(), span);
    }
    let mut out = String::with_capacity(text.len());
    let (mut start, mut end) = (None, None);
    for (i, c) in text.char_indices() {
        if i >= span.start && start.is_none() {
            start = Some(out.len());
        }
        if i >= span.end && end.is_none() {
            end = Some(out.len());
        }
        if is_unsafe_to_display(c) && !matches!(c, '\n' | '\r' | '\t') {
            out.push_str(&escape_unsafe(c.encode_utf8(&mut [0; 4])));
        } else {
            out.push(c);
        }
    }
    let start = start.unwrap_or(out.len());
    let end = end.unwrap_or(out.len()).max(start);
    (out, start..end)
}
