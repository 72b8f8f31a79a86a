//! Every rule's documentation is complete and its examples hold: each `iri-fail` line fires the
//! rule, no `iri-pass` line does.

use irilint::iri::chars::is_unsafe_to_display;
use irilint::rules::docs::{Expect, examples};
use irilint::rules::{self, RULES, Selection, Severity};

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
            ex.iter().any(|(e, _)| *e == Expect::Fires),
            "{}: no iri-fail",
            rule.id
        );
        assert!(
            ex.iter().any(|(e, _)| *e == Expect::Quiet),
            "{}: no iri-pass",
            rule.id
        );
    }
}

#[test]
fn examples_fire_or_stay_quiet_as_documented() {
    let all = Selection::all();
    let mut problems = Vec::new();
    for rule in RULES {
        for (expect, iri) in examples(rule.doc) {
            let fired = rules::check(&iri, &all)
                .iter()
                .any(|f| f.rule.id == rule.id);
            let ok = match expect {
                Expect::Fires => fired,
                Expect::Quiet => !fired,
            };
            if !ok {
                problems.push(format!("{}: {expect:?} expected for {iri:?}", rule.id));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn passing_examples_of_error_rules_are_free_of_errors() {
    // A passing example is what the doc tells people to write: it must not trip another error.
    let all = Selection::all();
    for rule in RULES {
        for (expect, iri) in examples(rule.doc) {
            if expect == Expect::Quiet {
                let errors: Vec<_> = rules::check(&iri, &all)
                    .into_iter()
                    .filter(|f| f.severity == Severity::Error)
                    .map(|f| f.rule.id)
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{}: {iri:?} has errors {errors:?}",
                    rule.id
                );
            }
        }
    }
}
