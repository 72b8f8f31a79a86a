//! Every rule's documentation is complete and its examples hold: each failing example fires the
//! rule, no passing example does. IRI examples go through the rule engine; document examples
//! (`xml-fail`, `html-pass`, `html-fail windows-1252`, ...) through the whole pipeline as files:
//! saved in their encoding, decoded, extracted and checked.

use irilint::check::{CheckOptions, check_project, check_source};
use irilint::iri::chars::is_unsafe_to_display;
use irilint::rules::docs::{Example, Expect, examples};
use irilint::rules::{self, RULES, Selection, Severity};
use irilint::source::{Format, Source};

/// The rule ids and severities an example produces, with the findings a more specific
/// look-alike finding withholds (one finding per look-alike host): an example shows what its
/// rule finds, whether it speaks or another speaks for it.
fn fired(example: &Example) -> Vec<(&'static str, Severity)> {
    fn finding(f: rules::Finding, out: &mut Vec<(&'static str, Severity)>) {
        out.push((f.rule.id, f.severity));
        f.withheld.into_iter().for_each(|w| finding(w, out));
    }
    fn diagnostic(d: irilint::diagnostic::Diagnostic, out: &mut Vec<(&'static str, Severity)>) {
        out.push((d.rule, d.severity));
        d.withheld.into_iter().for_each(|w| diagnostic(w, out));
    }
    let all = Selection::all();
    let mut out = Vec::new();
    match &example.format {
        None => {
            for f in rules::check(&example.text, &all) {
                finding(f, &mut out);
            }
            out
        }
        Some(name) => {
            let format =
                Format::from_name(name).unwrap_or_else(|| panic!("unknown format `{name}`"));
            let bytes = example
                .bytes()
                .unwrap_or_else(|| panic!("unknown encoding {:?}", example.encoding.as_deref()));
            let options = CheckOptions::new(&all);
            // A PDF is read as a file is: each action behind a link is a document.
            let sources = if format == Format::Pdf {
                let mut sources = Vec::new();
                irilint::extract::pdf::each_link_source("example", &bytes, &mut |s| {
                    sources.push(s)
                })
                .unwrap_or_else(|e| panic!("{e:?}: {:?}", example.text));
                sources
            } else {
                vec![
                    Source::decode("example".into(), format, &bytes)
                        .unwrap_or_else(|e| panic!("{e:?}: {:?}", example.text)),
                ]
            };
            // A one-document project, so that project-level rules run too.
            let mut outcomes: Vec<_> = sources.iter().map(|s| check_source(s, &options)).collect();
            check_project(&mut outcomes, &options);
            for outcome in outcomes {
                for d in outcome.diagnostics {
                    diagnostic(d, &mut out);
                }
            }
            out
        }
    }
}

#[test]
fn every_doc_has_the_sections_and_metadata() {
    for rule in RULES {
        let doc = rule.doc;
        assert!(
            doc.starts_with(&format!("# {}\n", rule.id)),
            "{}: title",
            rule.id
        );
        for section in [
            "## What it does",
            "## Why it matters",
            "## Example",
            "## Fix",
        ] {
            assert!(doc.contains(section), "{}: missing {section}", rule.id);
        }
        for s in rule.rfc {
            assert!(
                doc.contains(&format!("§{s}")),
                "{}: does not cite §{s}",
                rule.id
            );
        }
        let meta = format!(
            "**Group:** {} · **Default severity:** {}",
            rule.group,
            rule.severity.name()
        );
        assert!(doc.contains(&meta), "{}: expected `{meta}`", rule.id);
        let bad: Vec<String> = doc
            .chars()
            .filter(|&c| c != '\n' && is_unsafe_to_display(c))
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        assert!(
            bad.is_empty(),
            "{}: raw hidden characters {bad:?}; write \\u{{...}}",
            rule.id
        );
    }
}

#[test]
fn every_rule_has_a_failing_and_a_passing_example() {
    for rule in RULES {
        let ex = examples(rule.doc);
        assert!(
            ex.iter().any(|e| e.expect == Expect::Fires),
            "{}: no failing example",
            rule.id
        );
        assert!(
            ex.iter().any(|e| e.expect == Expect::Quiet),
            "{}: no passing example",
            rule.id
        );
    }
}

#[test]
fn examples_fire_or_stay_quiet_as_documented() {
    let mut problems = Vec::new();
    for rule in RULES {
        for example in examples(rule.doc) {
            let fired = fired(&example).iter().any(|(id, _)| *id == rule.id);
            let ok = match example.expect {
                Expect::Fires => fired,
                Expect::Quiet => !fired,
            };
            if !ok {
                problems.push(format!(
                    "{}: {:?} expected for {:?}",
                    rule.id, example.expect, example.text
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn passing_examples_are_free_of_errors() {
    // A passing example is what the doc tells people to write: it must not trip another error.
    for rule in RULES {
        for example in examples(rule.doc) {
            if example.expect == Expect::Quiet {
                let errors: Vec<_> = fired(&example)
                    .into_iter()
                    .filter(|(_, s)| *s == Severity::Error)
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{}: {:?} has errors {errors:?}",
                    rule.id,
                    example.text
                );
            }
        }
    }
}
