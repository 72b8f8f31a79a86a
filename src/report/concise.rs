//! `path:line:col: severity[rule] message`, one diagnostic per line.

use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;

/// The concise lines for one file's diagnostics.
pub fn render_file(path: &str, diagnostics: &[Diagnostic]) -> String {
    let path = escape_unsafe(path);
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&format!(
            "{path}:{}:{}: {}[{}] {}\n",
            d.start.line,
            d.start.column,
            d.severity.name(),
            d.rule,
            escape_unsafe(&d.message)
        ));
    }
    out
}
