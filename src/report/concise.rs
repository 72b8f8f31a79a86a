//! `path:line:col: severity[rule] message`, one diagnostic per line; `[*]` before the message
//! marks what `--fix` would fix (a safe fix), as in ruff.

use crate::diagnostic::Diagnostic;
use crate::iri::chars::escape_unsafe;
use crate::iri_fix::Applicability;

/// The concise lines for one file's diagnostics.
pub fn render_file(path: &str, diagnostics: &[Diagnostic]) -> String {
    let path = escape_unsafe(path);
    let mut out = String::new();
    for d in diagnostics {
        let fixable = d
            .fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Safe);
        out.push_str(&format!(
            "{path}:{}:{}: {}[{}] {}{}\n",
            d.start.line,
            d.start.column,
            d.severity.name(),
            d.rule,
            if fixable { "[*] " } else { "" },
            escape_unsafe(&d.message)
        ));
    }
    out
}
