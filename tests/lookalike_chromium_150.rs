//! What the look-alike rules took from Chromium 150 (Debian's source package; see
//! scripts/chromium-source.sh): its top-domain list of about 8,400 names, the CJK characters
//! it added to its stroke rule, `ı` read as `l` too, `т` and `к` among the Cyrillic letters of a
//! whole-script confusable, and `þ`/`ð` allowed under the Faroe Islands' TLD as under Iceland's.
//! Each case failed before (the list then held Moz's Top 500 only; the tables were Chromium's of
//! an older version).

use irilint::rules::{self, Finding, Selection};

/// The findings of the look-alike group on `https://HOST/` (those reported, not withheld).
fn lookalike(host: &str) -> Vec<Finding> {
    rules::check(&format!("https://{host}/"), &Selection::all())
        .into_iter()
        .filter(|f| f.rule.group == "lookalike")
        .collect()
}

fn ids(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.rule.id).collect()
}

/// `host` gets one `lookalike-domain` finding that names `imitated`.
fn imitates(host: &str, imitated: &str) {
    let found = lookalike(host);
    assert_eq!(ids(&found), ["lookalike-domain"], "{host}: {found:#?}");
    assert!(
        found[0].message.contains(&format!("`{imitated}`")),
        "{host} should be said to imitate {imitated}: {}",
        found[0].message
    );
}

#[test]
fn names_of_chromiums_list_beyond_the_top_500_are_imitated() {
    // Cyrillic е (U+0435), а (U+0430), о (U+043E): the names are Chromium's, not Moz's Top 500.
    imitates("coinbas\u{0435}.com", "coinbase.com");
    imitates("\u{0430}ccuweather.com", "accuweather.com");
    imitates("wildberri\u{0435}s.ru", "wildberries.ru");
    imitates("b\u{0456}ng.com", "bing.com");
}

#[test]
fn dotless_i_reads_as_l_as_well_as_i() {
    imitates("goog\u{0131}e.com", "google.com");
    imitates("\u{0131}inkedin.com", "linkedin.com");
}

#[test]
fn cyrillic_te_and_ka_make_a_whole_script_confusable() {
    // теѕт.com: every letter looks like a Latin one (т as t); under a Cyrillic TLD it is Russian.
    let found = lookalike("\u{0442}\u{0435}\u{0455}\u{0442}.com");
    assert!(!found.is_empty(), "теѕт.com is a whole-script confusable");
    assert!(lookalike("\u{0442}\u{0435}\u{0455}\u{0442}.ru").is_empty());
    // A Russian word that is not all look-alikes stays quiet under .com too: торты (cakes).
    assert!(lookalike("\u{0442}\u{043E}\u{0440}\u{0442}\u{044B}-123.ru").is_empty());
}

#[test]
fn cjk_strokes_beside_latin_letters_are_spoofs_and_quiet_among_cjk() {
    for c in [
        '\u{4E85}', '\u{4E8C}', '\u{4EA0}', '\u{5196}', '\u{5B80}', '\u{5DDB}',
    ] {
        for host in [format!("{c}google.com"), format!("google{c}example.com")] {
            assert_eq!(ids(&lookalike(&host)), ["spoof-pattern"], "{host}");
        }
    }
    // Among Han characters they are ordinary words: 二手 (second-hand), 宀 beside 家.
    assert!(lookalike("\u{4E8C}\u{624B}.cn").is_empty());
    assert!(lookalike("\u{5B80}\u{5BB6}.cn").is_empty());
}

#[test]
fn thorn_and_eth_belong_to_iceland_and_the_faroe_islands() {
    assert!(lookalike("mn\u{00F0}pqr.fo").is_empty());
    assert!(lookalike("mn\u{00F0}pqr.is").is_empty());
    assert!(lookalike("\u{00FE}ingvellir.fo").is_empty());
    let found = lookalike("mn\u{00F0}pqr.com");
    assert_eq!(ids(&found), ["spoof-pattern"]);
    assert!(
        found[0].message.contains("`.is` and `.fo`"),
        "{}",
        found[0].message
    );
}

/// Not Chromium's: letters of scripts without case that look like Latin capitals (Lisu) read as
/// the lowercase letters of a host, so that the name they spell is named (before, only
/// `restricted-character` warned, as for any Lisu letter).
#[test]
fn lisu_capitals_spell_the_domain_they_imitate() {
    imitates("\u{A4EE}\u{A4D1}\u{A4D1}\u{A4E1}\u{A4F0}.com", "apple.com");
    imitates(
        "\u{A4D1}\u{A4EE}\u{A4EC}\u{A4D1}\u{A4EE}\u{A4E1}.com",
        "paypal.com",
    );
    // Lisu that spells no listed name keeps its warning only.
    let found = lookalike("\u{A4D3}\u{A4F1}\u{A4E2}\u{A4D4}.com");
    assert!(!found.is_empty());
    assert!(
        ids(&found).iter().all(|&id| id == "restricted-character"),
        "{found:#?}"
    );
}
