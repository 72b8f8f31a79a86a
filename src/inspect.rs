//! `irilint inspect IRI`: everything irilint knows about one IRI — validity and the first syntax
//! error, the components, every character (code point, name, script, bidi class, whether NFC or
//! NFKC change it, and for a host name its IDNA2008 derived property) and the findings of all
//! rules.

use serde::Serialize;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_script::UnicodeScript;

use crate::diagnostic::Diagnostic;
use crate::extract::{Occurrence, SpanMap};
use crate::iri::chars::escape_unsafe;
use crate::iri::{self, Component, HostKind, Iri, Kind, chars, idna2008};
use crate::report::human::HumanRenderer;
use crate::report::json::JsonDiagnostic;
use crate::rules::{self, Selection};
use crate::source::{Format, Source};

/// The result of inspecting one IRI.
pub struct Inspection {
    input: String,
    parsed: Iri,
    source: Source,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Serialize)]
struct JsonInspection<'a> {
    input: &'a str,
    valid: bool,
    kind: Option<&'static str>,
    error: Option<JsonError>,
    components: Components<'a>,
    characters: Vec<CharInfo>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonError {
    offset: usize,
    message: String,
}

#[derive(Serialize)]
struct Components<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    host_kind: Option<&'static str>,
    port: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// One character of the input.
#[derive(Serialize)]
struct CharInfo {
    offset: usize,
    char: String,
    code_point: String,
    name: String,
    script: &'static str,
    bidi_class: String,
    nfc_changes: bool,
    nfkc_changes: bool,
    component: Option<&'static str>,
    /// The IDNA2008 derived property (RFC 5892 §3) of a character of a host name, as written.
    idna2008: Option<&'static str>,
}

impl Inspection {
    /// Parses `input` and runs every rule on it, `info` ones included.
    pub fn new(input: &str) -> Inspection {
        let parsed = iri::analyze(input);
        let source = Source::from_text("IRI".into(), Format::Text, input.to_string());
        let occurrence = Occurrence {
            iri: input.into(),
            map: SpanMap::identity(0..input.len()),
            origin: "inspect".into(),
            placeholders: Vec::new(),
            label: None,
            reference_texts: Vec::new(),
        };
        let shared: std::sync::Arc<str> = std::sync::Arc::from(input);
        let diagnostics = rules::check_parsed(input, &parsed, &Selection::all())
            .into_iter()
            .map(|f| Diagnostic::new(&source, &occurrence, &shared, f, &mut Default::default()))
            .collect();
        Inspection {
            input: input.to_string(),
            parsed,
            source,
            diagnostics,
        }
    }

    /// Whether the input is a valid IRI-reference.
    pub fn is_valid(&self) -> bool {
        self.parsed.is_valid()
    }

    fn components(&self) -> Components<'_> {
        let s = &self.input;
        let p = &self.parsed;
        let get = |r: &Option<std::ops::Range<usize>>| r.as_ref().map(|r| &s[r.clone()]);
        let auth = p.authority.as_ref();
        Components {
            scheme: get(&p.scheme),
            authority: auth.map(|a| &s[a.range.clone()]),
            userinfo: auth.and_then(|a| get(&a.userinfo)),
            host: auth.map(|a| &s[a.host.range.clone()]),
            host_kind: auth.and_then(|a| a.host.kind).map(|k| k.name()),
            port: auth.and_then(|a| get(&a.port)),
            path: &s[p.path.clone()],
            query: get(&p.query),
            fragment: get(&p.fragment),
        }
    }

    /// True when byte `i` is inside a label of a host name (not an IP address, not a dot).
    fn in_host_label(&self, i: usize) -> bool {
        self.parsed.authority.as_ref().is_some_and(|a| {
            a.host.kind == Some(HostKind::RegName)
                && a.host.labels(&self.input).any(|l| l.contains(&i))
        })
    }

    fn characters(&self) -> Vec<CharInfo> {
        self.input
            .char_indices()
            .map(|(i, c)| {
                let one = c.to_string();
                CharInfo {
                    offset: i,
                    char: one.clone(),
                    code_point: format!("U+{:04X}", c as u32),
                    name: chars::char_name(c),
                    script: c.script().full_name(),
                    bidi_class: format!("{:?}", unicode_bidi::bidi_class(c)),
                    nfc_changes: !one.nfc().eq(one.chars()),
                    nfkc_changes: !one.nfkc().eq(one.chars()),
                    component: self.parsed.component_at(i).map(Component::name),
                    idna2008: self
                        .in_host_label(i)
                        .then(|| idna2008::derived_property(c).name()),
                }
            })
            .collect()
    }

    /// The JSON shape documented in the book (docs/src/inspect.md).
    pub fn to_json(&self) -> String {
        let valid = self.is_valid();
        let report = JsonInspection {
            input: &self.input,
            valid,
            kind: valid.then_some(match self.parsed.kind {
                Kind::Iri => "iri",
                Kind::Relative => "relative",
            }),
            error: self.parsed.first_error().map(|e| JsonError {
                offset: e.offset,
                message: e.message,
            }),
            components: self.components(),
            characters: self.characters(),
            diagnostics: self
                .diagnostics
                .iter()
                .map(|d| JsonDiagnostic::new(d, None))
                .collect(),
        };
        crate::escaped_json::to_string(&report)
    }

    /// A compact Markdown summary for an editor's hover: validity, components, every character
    /// that is not printable ASCII (code point, name, script, bidi class; hidden ones as
    /// `⟨U+XXXX⟩`, never raw) and the findings of all rules.
    pub fn to_markdown(&self) -> String {
        // Inside a code span: escaped, and its backticks made visible so the span stays closed.
        let code = |s: &str| format!("`{}`", escape_unsafe(s).replace('`', "ˋ"));
        let mut out = format!("**IRI** {}", code(&self.input));
        match self.parsed.first_error() {
            None => out.push_str(match self.parsed.kind {
                Kind::Iri => " — valid IRI\n",
                Kind::Relative => " — valid relative reference\n",
            }),
            Some(e) => out.push_str(&format!(
                " — **invalid**: {} (byte {})\n",
                escape_unsafe(&e.message),
                e.offset
            )),
        }
        let c = self.components();
        out.push('\n');
        for (name, value) in [
            ("scheme", c.scheme),
            ("host", c.host),
            ("port", c.port),
            ("path", Some(c.path).filter(|p| !p.is_empty())),
            ("query", c.query),
            ("fragment", c.fragment),
        ] {
            if let Some(v) = value {
                out.push_str(&format!("- {name}: {}\n", code(v)));
            }
        }
        let unusual: Vec<CharInfo> = self
            .characters()
            .into_iter()
            .filter(|ch| ch.char.chars().any(|c| !(c.is_ascii_graphic())))
            .collect();
        if !unusual.is_empty() {
            out.push_str(
                "\n| char | code point | name | script | bidi | IDNA2008 |\n|---|---|---|---|---|---|\n",
            );
            for ch in unusual.iter().take(64) {
                let c = ch.char.chars().next().expect("one character");
                let glyph = if chars::is_unsafe_to_display(c) || c.is_whitespace() {
                    "(hidden)".to_string()
                } else if is_combining_mark(c) {
                    format!("◌{c}")
                } else {
                    ch.char.clone()
                };
                out.push_str(&format!(
                    "| {glyph} | {} | {} | {} | {} | {} |\n",
                    ch.code_point,
                    ch.name,
                    ch.script,
                    ch.bidi_class,
                    ch.idna2008.unwrap_or("-")
                ));
            }
            if unusual.len() > 64 {
                out.push_str(&format!("\n…and {} more\n", unusual.len() - 64));
            }
        }
        if !self.diagnostics.is_empty() {
            out.push('\n');
            for d in &self.diagnostics {
                out.push_str(&format!(
                    "- **{}** {}: {}\n",
                    d.severity.name(),
                    d.rule,
                    escape_unsafe(&d.message)
                ));
            }
        }
        out
    }

    /// A readable report: components, a character table, and the diagnostics as `check` shows them.
    pub fn to_human(&self, color: bool) -> String {
        let mut out = String::new();
        let show = |s: &str| escape_unsafe(s);
        out.push_str(&format!("input      {}\n", show(&self.input)));
        match self.parsed.first_error() {
            None => {
                let kind = match self.parsed.kind {
                    Kind::Iri => "an IRI",
                    Kind::Relative => "a relative reference",
                };
                out.push_str(&format!("valid      yes, {kind}\n"));
            }
            Some(e) => out.push_str(&format!(
                "valid      no: {} (byte {})\n",
                show(&e.message),
                e.offset
            )),
        }
        let c = self.components();
        let rows: [(&str, Option<&str>); 8] = [
            ("scheme", c.scheme),
            ("authority", c.authority),
            ("userinfo", c.userinfo),
            ("host", c.host),
            ("port", c.port),
            ("path", Some(c.path)),
            ("query", c.query),
            ("fragment", c.fragment),
        ];
        out.push_str("components\n");
        for (name, value) in rows {
            if let Some(v) = value {
                let extra = match (name, c.host_kind) {
                    ("host", Some(kind)) => format!(" ({kind})"),
                    _ => String::new(),
                };
                out.push_str(&format!("  {name:<10} \"{}\"{extra}\n", show(v)));
            }
        }
        out.push_str("characters\n");
        out.push_str(
            "  offset  code point  char        script      bidi  NFC  NFKC  IDNA2008    component  name\n",
        );
        for ch in self.characters() {
            let c = ch.char.chars().next().expect("one character");
            let glyph = if chars::is_unsafe_to_display(c) {
                "(hidden)".to_string()
            } else if is_combining_mark(c) {
                format!("◌{c}")
            } else {
                ch.char.clone()
            };
            let mark = |b: bool| if b { "yes" } else { "-" };
            out.push_str(&format!(
                "  {:<7} {:<11} {:<11} {:<11} {:<5} {:<4} {:<5} {:<11} {:<10} {}\n",
                ch.offset,
                ch.code_point,
                glyph,
                ch.script,
                ch.bidi_class,
                mark(ch.nfc_changes),
                mark(ch.nfkc_changes),
                ch.idna2008.unwrap_or("-"),
                ch.component.unwrap_or("-"),
                ch.name
            ));
        }
        if self.diagnostics.is_empty() {
            out.push_str("no findings (all rules ran)\n");
        } else {
            out.push_str(&format!(
                "findings ({}, all rules ran)\n\n",
                self.diagnostics.len()
            ));
            out.push_str(&HumanRenderer::new(color).render_file(&self.source, &self.diagnostics));
            let withheld = withheld_rules(&self.diagnostics);
            if !withheld.is_empty() {
                out.push_str(&format!(
                    "\nwithheld under a more specific look-alike finding (one finding per host; \
                     --ignore the speaking rule to see them): {}\n",
                    withheld.join(", ")
                ));
            }
        }
        out
    }
}

/// The rules of the findings `diagnostics` withhold, at any depth, each once, in order.
fn withheld_rules(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    fn walk(ds: &[Diagnostic], out: &mut Vec<&'static str>) {
        for d in ds {
            if !out.contains(&d.rule) {
                out.push(d.rule);
            }
            walk(&d.withheld, out);
        }
    }
    let mut out = Vec::new();
    for d in diagnostics {
        walk(&d.withheld, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(input: &str) -> serde_json::Value {
        serde_json::from_str(&Inspection::new(input).to_json()).unwrap()
    }

    #[test]
    fn the_readable_report_names_the_findings_withheld() {
        let text = Inspection::new("https://g\u{43E}\u{43E}gle.com/").to_human(false);
        assert!(
            text.contains("withheld under a more specific look-alike finding")
                && text.contains(": confusable, mixed-script\n"),
            "{text}"
        );
        let plain = Inspection::new("https://example.org/").to_human(false);
        assert!(!plain.contains("withheld"), "{plain}");
    }

    #[test]
    fn valid_iri_components() {
        let v = json("http://user@例え.テスト:8080/a/b?q=1#f");
        assert_eq!(v["valid"], true);
        assert_eq!(v["kind"], "iri");
        assert_eq!(v["error"], serde_json::Value::Null);
        let c = &v["components"];
        assert_eq!(c["scheme"], "http");
        assert_eq!(c["authority"], "user@例え.テスト:8080");
        assert_eq!(c["userinfo"], "user");
        assert_eq!(c["host"], "例え.テスト");
        assert_eq!(c["host_kind"], "reg-name");
        assert_eq!(c["port"], "8080");
        assert_eq!(c["path"], "/a/b");
        assert_eq!(c["query"], "q=1");
        assert_eq!(c["fragment"], "f");
    }

    #[test]
    fn relative_and_invalid() {
        let v = json("#");
        assert_eq!(
            (v["valid"].clone(), v["kind"].clone()),
            (true.into(), "relative".into())
        );
        assert_eq!(v["components"]["path"], "");
        assert_eq!(v["components"]["fragment"], "");
        assert_eq!(v["components"]["scheme"], serde_json::Value::Null);
        let v = json("http://a:8x/");
        assert_eq!(v["valid"], false);
        assert_eq!(v["kind"], serde_json::Value::Null);
        assert_eq!(v["error"]["offset"], 10);
        assert_eq!(v["error"]["message"], "port must be digits");
        assert_eq!(v["diagnostics"][0]["rule"], "syntax-invalid");
    }

    #[test]
    fn characters_have_script_bidi_and_normalization() {
        let v = json("http://a/\u{212B}\u{FB01}ש");
        let chars = v["characters"].as_array().unwrap();
        let angstrom = &chars[9];
        assert_eq!(angstrom["code_point"], "U+212B");
        assert_eq!(angstrom["name"], "ANGSTROM SIGN");
        assert_eq!(angstrom["nfc_changes"], true);
        let fi = &chars[10];
        assert_eq!(
            (fi["nfc_changes"].clone(), fi["nfkc_changes"].clone()),
            (false.into(), true.into())
        );
        let shin = &chars[11];
        assert_eq!(shin["script"], "Hebrew");
        assert_eq!(shin["bidi_class"], "R");
        assert_eq!(shin["component"], "path");
    }

    #[test]
    fn markdown_summary_escapes_and_lists_unusual_characters() {
        let md = Inspection::new("http://раypal.example/a\u{202E}b`c").to_markdown();
        assert!(!md.contains('\u{202E}'), "{md}");
        assert!(
            md.contains("| (hidden) | U+202E | RIGHT-TO-LEFT OVERRIDE | Common | RLO | - |"),
            "{md}"
        );
        assert!(
            md.contains("| р | U+0440 | CYRILLIC SMALL LETTER ER | Cyrillic | L | PVALID |"),
            "{md}"
        );
        assert!(md.contains("- host: `раypal.example`"), "{md}");
        assert!(md.contains("**error** bidi-formatting-character"), "{md}");
        // A backtick cannot end the code span early.
        assert!(md.contains("bˋc`"), "{md}");
    }

    #[test]
    fn host_characters_have_their_idna2008_property() {
        let v = json("http://a\u{B7}l.\u{1F600}.\u{C2E4}\u{302E}/\u{B7}");
        let c = v["characters"].as_array().unwrap();
        let prop = |i: usize| c[i]["idna2008"].clone();
        assert_eq!(c[8]["code_point"], "U+00B7");
        assert_eq!(prop(7), "PVALID");
        assert_eq!(prop(8), "CONTEXTO");
        assert_eq!(prop(10), serde_json::Value::Null); // the dot between labels
        assert_eq!(prop(11), "DISALLOWED"); // emoji
        assert_eq!(prop(14), "DISALLOWED"); // U+302E, RFC 5892 §2.6
        assert_eq!(prop(16), serde_json::Value::Null); // the path
        let ip = json("http://127.0.0.1/");
        assert_eq!(ip["characters"][7]["idna2008"], serde_json::Value::Null);
        let human = Inspection::new("http://a\u{B7}l/").to_human(false);
        assert!(human.contains("IDNA2008"), "{human}");
        assert!(
            human
                .lines()
                .any(|l| l.contains("U+00B7") && l.contains("CONTEXTO")),
            "{human}"
        );
    }

    #[test]
    fn human_output_never_prints_hidden_characters() {
        let out = Inspection::new("http://example.org/\u{202E}gnp.exe").to_human(false);
        assert!(!out.contains('\u{202E}'));
        assert!(out.contains("RIGHT-TO-LEFT OVERRIDE"));
        assert!(out.contains("bidi-formatting-character"));
    }
}
