//! Helpers shared by the rule tests that check single IRIs: the findings of a set of rules as
//! (rule, severity, underlined text, message, help), with every message and help checked for
//! raw hidden characters.

#![allow(dead_code)] // each test crate uses its own subset

pub mod cli;
pub mod counting;
pub mod documents;
pub mod packages;
pub mod pdf;
pub mod rss;
pub mod run;

use irilint::iri::chars::is_unsafe_to_display;
use irilint::rules::{self, Selection, Severity};

/// One finding: rule, severity, the text underlined, message and help.
#[derive(Debug)]
pub struct Found {
    pub rule: &'static str,
    pub severity: Severity,
    pub span: String,
    pub message: String,
    pub help: String,
}

/// The findings of the rules in `mine` on `iri`, every rule running (so that the rules' division
/// of labour is part of what is tested). Fails if a message or help shows a hidden character raw.
pub fn findings_of(iri: &str, mine: &[&str]) -> Vec<Found> {
    let found: Vec<Found> = rules::check(iri, &Selection::all())
        .into_iter()
        .filter(|f| mine.contains(&f.rule.id))
        .map(|f| Found {
            rule: f.rule.id,
            severity: f.severity,
            span: iri[f.range].to_string(),
            message: f.message,
            help: f.help.unwrap_or_default(),
        })
        .collect();
    for f in &found {
        assert!(
            !f.message
                .chars()
                .chain(f.help.chars())
                .any(is_unsafe_to_display),
            "hidden character in {f:?}"
        );
    }
    found
}

/// The findings of `rule` as (severity, span).
pub fn spans_of(found: Vec<Found>, rule: &str) -> Vec<(Severity, String)> {
    found
        .into_iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.severity, f.span))
        .collect()
}

/// Fails, listing them, if `findings` finds anything in any of `iris`.
pub fn assert_quiet<T: std::fmt::Debug>(iris: &[&str], findings: impl Fn(&str) -> Vec<T>) {
    let noisy: Vec<String> = iris
        .iter()
        .filter_map(|iri| {
            let got = findings(iri);
            (!got.is_empty()).then(|| format!("{iri}: {got:?}"))
        })
        .collect();
    assert!(noisy.is_empty(), "{}", noisy.join("\n"));
}

/// An error on `span`.
pub fn e(span: &str) -> (Severity, String) {
    (Severity::Error, span.to_string())
}

/// A warning on `span`.
pub fn w(span: &str) -> (Severity, String) {
    (Severity::Warning, span.to_string())
}

/// An info on `span`.
pub fn i(span: &str) -> (Severity, String) {
    (Severity::Info, span.to_string())
}

/// A proptest runner of `cases` cases that draws the same cases every run, and keeps no
/// regression file: for the tests that measure generated documents, where a failure is a
/// finding to fix, not luck of the draw.
pub fn same_cases_every_run(cases: u32) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}
