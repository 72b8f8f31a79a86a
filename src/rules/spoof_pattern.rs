//! `spoof-pattern`: character sequences in a host label that the browsers' IDN display
//! policies treat as spoofs although every character is allowed on its own: combining marks
//! repeated or hidden (UTS #39 §5.4), and kana and CJK characters placed where they read as
//! punctuation or Latin letters (Chrome's IDN policy).
//!
//! Sources, cited per check in `rules/spoof-pattern.md`: UTS #39 §5.4 (Optional Detection);
//! Chromium's "IDN in Google Chrome" policy (docs/idn.md) and the dangerous patterns of its
//! spoof checker (components/url_formatter/spoof_checks/idn_spoof_checker.cc); crrev.com/382029
//! (the 2016 policy: "a sequence of the same combining mark", Katakana "surrounded by
//! non-Japanese scripts because they could be mistaken as a slash").

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;
use unicode_script::Script;

use super::host_labels;
use super::{Check, IriCheck, Rule, Severity, Sink};
use crate::iri::chars::describe;
use crate::iri::props;

/// `spoof-pattern`.
pub const SPOOF_PATTERN: Rule = Rule {
    id: "spoof-pattern",
    group: "lookalike",
    severity: Severity::Error,
    rfc: &["7.5", "8"],
    doc: include_str!("../../rules/spoof-pattern.md"),
    unicode_only: true,
    check: Check::Iri(check_patterns),
};

fn check_patterns(input: &IriCheck<'_>, sink: &mut Sink<'_>) {
    host_labels::for_each_name(input, |labels, tld| {
        let count = labels.len();
        for (n, label) in labels.iter().enumerate() {
            if label.text.is_ascii() {
                continue;
            }
            // Only a written mark can make a mark pattern (no precomposed letter carries a mark
            // twice or a hidden one), and only a character of U+3000..U+9FFF (kana, Bopomofo,
            // CJK strokes) a kana one: most labels are passed over in one cheap scan.
            let (mut marks, mut cjk, mut local) = (false, false, false);
            for c in label.text.chars() {
                marks |= !c.is_ascii() && is_nonspacing_mark(c);
                cjk |= ('\u{3000}'..='\u{9FFF}').contains(&c);
                local |= TLD_LETTERS.iter().any(|&(l, _)| l == c);
            }
            let found = if marks {
                mark_pattern(label.text)
            } else {
                None
            };
            let found = found.or_else(|| if cjk { kana_pattern(label.text) } else { None });
            // The TLD itself is what the letters are measured by.
            let found = found.or_else(|| {
                if local && n + 1 < count {
                    tld_pattern(label.text, tld.unwrap_or(""))
                } else {
                    None
                }
            });
            if let Some((range, message)) = found {
                sink.report(
                    label.span(range.start, range.len()),
                    format!("{}: {message}", label.place()),
                    Some(HELP.to_string()),
                );
            }
        }
    });
}

/// Letters Chrome allows only under some TLDs, with those TLDs: `þ` (reads as `b` or `p`) and
/// `ð` (as `o`) are Icelandic and Faroese, `ə` (as `e`) Azerbaijani, and `·` between two `l`
/// Catalan (the ela geminada, RFC 5892 appendix A.3).
const TLD_LETTERS: [(char, &[&str]); 4] = [
    ('\u{00FE}', &["is", "fo"]),
    ('\u{00F0}', &["is", "fo"]),
    ('\u{0259}', &["az"]),
    ('\u{00B7}', &["cat"]),
];

/// The first letter of `label` that Chrome allows only under another TLD than `tld` (or, for
/// `·`, only between two `l`), as Chrome's `kTLDSpecificCharacters` and `HasUnsafeMiddleDot`
/// decide. A label of the one letter alone is left alone, as Chrome leaves it.
pub(super) fn tld_pattern(label: &str, tld: &str) -> Option<(std::ops::Range<usize>, String)> {
    let chars: Vec<(usize, char)> = label.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let Some(&(_, home)) = TLD_LETTERS.iter().find(|&&(l, _)| l == c) else {
            continue;
        };
        let here = i..i + c.len_utf8();
        if c == '\u{00B7}' {
            let between_l =
                k > 0 && chars[k - 1].1 == 'l' && chars.get(k + 1).is_some_and(|&(_, n)| n == 'l');
            if !home.contains(&tld) || !between_l {
                return Some((
                    here,
                    format!(
                        "{} is allowed only between two `l` under `.cat` (the Catalan ela geminada); elsewhere it passes for a dot (Chrome's IDN policy, RFC 5892 appendix A.3)",
                        describe(c)
                    ),
                ));
            }
            continue;
        }
        if chars.len() > 1 && !home.contains(&tld) {
            return Some((
                here,
                format!(
                    "{} is allowed only under {}, where it is a letter of the language; elsewhere it passes for a Latin letter (Chrome's IDN policy)",
                    describe(c),
                    home.iter()
                        .map(|t| format!("`.{t}`"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            ));
        }
    }
    None
}

const HELP: &str = "write the name without the disguise: browsers show a host with this pattern as Punycode (`xn--...`) because it can pass for another name";

/// A nonspacing or enclosing mark (General_Category Mn or Me): the marks UTS #39 §5.4 counts.
fn is_nonspacing_mark(c: char) -> bool {
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark
    )
}

/// True when `c` is used with Latin, Greek or Cyrillic (its Script_Extensions name one of them;
/// a character of every script, such as a digit, is none of them).
fn is_lgc(c: char) -> bool {
    let ext = props::script_extension(c);
    if ext.is_common() || ext.is_inherited() {
        return false;
    }
    ext.contains_script(Script::Latin)
        || ext.contains_script(Script::Greek)
        || ext.contains_script(Script::Cyrillic)
}

/// The first combining-mark disguise in `label` (on its canonical decomposition, as UTS #39
/// §5.4 asks, so that a mark written precomposed counts): its byte range in `label` (the
/// written character that holds the mark) and what it is.
pub(super) fn mark_pattern(label: &str) -> Option<(std::ops::Range<usize>, String)> {
    use unicode_normalization::char::decompose_canonical;
    let mut base: Option<char> = None;
    let mut marks: Vec<char> = Vec::new();
    for (i, c) in label.char_indices() {
        let here = i..i + c.len_utf8();
        let mut found = None;
        decompose_canonical(c, |d| {
            if found.is_some() {
                return;
            }
            if !is_nonspacing_mark(d) {
                base = Some(d);
                marks.clear();
                return;
            }
            let Some(b) = base else {
                return; // a label that starts with a mark: `idn-invalid` (RFC 5891 §4.2.3.2)
            };
            if marks.contains(&d) {
                found = Some(format!(
                    "{} is repeated on {} (UTS #39 §5.4: a sequence of the same nonspacing mark renders as one)",
                    describe(d),
                    describe(b)
                ));
                return;
            }
            marks.push(d);
            if marks.len() > 4 {
                found = Some(format!(
                    "{} carries more than four nonspacing marks (UTS #39 §5.4)",
                    describe(b)
                ));
                return;
            }
            if marks.len() == 1 {
                let hidden = (matches!(b, 'i' | 'j' | 'l') && d == '\u{0307}')
                    || (matches!(b, '\u{0131}' | '\u{0237}')
                        && ('\u{0300}'..='\u{036F}').contains(&d));
                if hidden {
                    found = Some(format!(
                        "{} after {} is hidden by it, so the label reads as if it were not there (UTS #39 §5.4; Chrome's IDN policy)",
                        describe(d),
                        describe(b)
                    ));
                    return;
                }
            }
            if ('\u{0300}'..='\u{0339}').contains(&d) && !is_lgc(b) {
                found = Some(format!(
                    "{} follows {}, which is not a Latin, Greek or Cyrillic letter (Chrome's IDN policy: such a mark can hide in or imitate the character it sits on)",
                    describe(d),
                    describe(b)
                ));
            }
        });
        if let Some(message) = found {
            return Some((here, message));
        }
    }
    None
}

/// True when `c` is written with Japanese (Hiragana, Katakana or Han, by Script_Extensions; a
/// digit or other character of every script is none).
fn is_japanese(c: char) -> bool {
    let ext = props::script_extension(c);
    if ext.is_common() || ext.is_inherited() {
        return false;
    }
    ext.contains_script(Script::Hiragana)
        || ext.contains_script(Script::Katakana)
        || ext.contains_script(Script::Han)
}

/// True when `c` is written with Chinese, Japanese or Korean text (by Script_Extensions).
fn is_cjk(c: char) -> bool {
    let ext = props::script_extension(c);
    is_japanese(c)
        || !ext.is_common()
            && !ext.is_inherited()
            && (ext.contains_script(Script::Bopomofo) || ext.contains_script(Script::Hangul))
}

/// True when `c`'s Script_Extensions name `s` (a character of every script names none: `1` is
/// no Katakana).
fn has_script(c: char, s: Script) -> bool {
    let ext = props::script_extension(c);
    !ext.is_common() && !ext.is_inherited() && ext.contains_script(s)
}

/// True when `label` mixes scripts beyond one logical CJK script: it has a letter of a script
/// other than Han, Hiragana, Katakana, Bopomofo and Hangul. Chrome looks for the CJK placement
/// patterns only in such labels (a label of one script, `一123`, is displayed as it is).
fn mixes_scripts(label: &str) -> bool {
    label.chars().any(|c| {
        let s = props::script(c);
        !matches!(
            s,
            Script::Common
                | Script::Inherited
                | Script::Unknown
                | Script::Han
                | Script::Hiragana
                | Script::Katakana
                | Script::Bopomofo
                | Script::Hangul
        )
    })
}

/// Katakana NO, N, SO and ZO, and the ideographs 丶 乀 乁 丿: strokes that pass for `/`, `\` or
/// `'` among Latin letters (Chrome's dangerous patterns).
const SLASH_KATAKANA: [char; 8] = [
    '\u{30CE}', '\u{30F3}', '\u{30BD}', '\u{30BE}', '\u{4E36}', '\u{4E40}', '\u{4E41}', '\u{4E3F}',
];

/// Han and Bopomofo characters that pass for a hyphen, a Latin letter, a digit or a mark next to
/// characters that are not CJK: Chrome's list (一 ㄧ 丨 乛 七 丅 十 〇 ㄒ ㄚ ㄟ ㄨ ㄩ ㄈ ㆺ ㆳ 工 ㆲ
/// 讠 丁 丶, and 亅 二 亠 冖 宀 巛, which the Kangxi radicals ⼅ ⼆ ⼇ ⼍ ⼧ ⼮ become under NFKC).
const STROKE_HAN: [char; 27] = [
    '\u{4E00}', '\u{3127}', '\u{4E28}', '\u{4E5B}', '\u{4E03}', '\u{4E05}', '\u{5341}', '\u{3007}',
    '\u{3112}', '\u{311A}', '\u{311F}', '\u{3128}', '\u{3129}', '\u{3108}', '\u{31BA}', '\u{31B3}',
    '\u{5DE5}', '\u{31B2}', '\u{8BA0}', '\u{4E01}', '\u{4E36}', '\u{4E85}', '\u{4E8C}', '\u{4EA0}',
    '\u{5196}', '\u{5B80}', '\u{5DDB}',
];

/// The first kana or CJK placement that Chrome's IDN policy treats as a spoof.
pub(super) fn kana_pattern(label: &str) -> Option<(std::ops::Range<usize>, String)> {
    let chars: Vec<(usize, char)> = label.char_indices().collect();
    // `among(k, p)`: the neighbours of character k that exist, none of them p, and at least one.
    let among = |k: usize, p: fn(char) -> bool| {
        let prev = k.checked_sub(1).map(|j| chars[j].1);
        let next = chars.get(k + 1).map(|&(_, c)| c);
        (prev.is_some() || next.is_some()) && !prev.is_some_and(p) && !next.is_some_and(p)
    };
    // Chrome's rule for the strokes: a neighbour on either side that is not CJK.
    let beside = |k: usize, p: fn(char) -> bool| {
        let prev = k.checked_sub(1).map(|j| chars[j].1);
        let next = chars.get(k + 1).map(|&(_, c)| c);
        prev.is_some_and(|c| !p(c)) || next.is_some_and(|c| !p(c))
    };
    let mixed = mixes_scripts(label);
    let all_but = |k: usize, s: Script| {
        k > 0
            && k + 1 < chars.len()
            && chars
                .iter()
                .enumerate()
                .all(|(j, &(_, c))| j == k || has_script(c, s))
    };
    for (k, &(i, c)) in chars.iter().enumerate() {
        let here = i..i + c.len_utf8();
        let prev = k.checked_sub(1).map(|j| chars[j].1);
        let message = if SLASH_KATAKANA.contains(&c) && mixed && among(k, is_japanese) {
            format!(
                "{} stands among characters that are not Japanese, where it passes for a slash or a stroke (Chrome's IDN policy)",
                describe(c)
            )
        } else if STROKE_HAN.contains(&c) && mixed && beside(k, is_cjk) {
            format!(
                "{} stands among characters that are not Chinese, Japanese or Korean, where it passes for a hyphen or a Latin letter (Chrome's IDN policy)",
                describe(c)
            )
        } else if c == '\u{30FC}'
            && !prev
                .is_some_and(|p| has_script(p, Script::Hiragana) || has_script(p, Script::Katakana))
        {
            format!(
                "{} does not follow kana, so it passes for a hyphen or a dash (Chrome's IDN policy)",
                describe(c)
            )
        } else if matches!(c, '\u{30FD}' | '\u{30FE}')
            && !prev.is_some_and(|p| has_script(p, Script::Katakana))
        {
            format!(
                "{} (a Katakana iteration mark) does not follow Katakana (Chrome's IDN policy)",
                describe(c)
            )
        } else if matches!(c, '\u{309D}' | '\u{309E}')
            && !prev.is_some_and(|p| has_script(p, Script::Hiragana))
        {
            format!(
                "{} (a Hiragana iteration mark) does not follow Hiragana (Chrome's IDN policy)",
                describe(c)
            )
        } else if ('\u{3078}'..='\u{307A}').contains(&c) && all_but(k, Script::Katakana) {
            format!(
                "{} is the one Hiragana letter in a Katakana label, where it looks the same as the Katakana letter (Chrome's IDN policy)",
                describe(c)
            )
        } else if ('\u{30D8}'..='\u{30DA}').contains(&c) && all_but(k, Script::Hiragana) {
            format!(
                "{} is the one Katakana letter in a Hiragana label, where it looks the same as the Hiragana letter (Chrome's IDN policy)",
                describe(c)
            )
        } else if c == '\u{30FB}'
            && (prev.is_some_and(|p| p.is_ascii_alphabetic())
                || chars
                    .get(k + 1)
                    .is_some_and(|&(_, n)| n.is_ascii_alphabetic()))
        {
            format!(
                "{} next to a Latin letter passes for a dot (Chrome's IDN policy)",
                describe(c)
            )
        } else {
            continue;
        };
        return Some((here, message));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(s: &str) -> bool {
        mark_pattern(s).is_some()
    }

    fn kana(s: &str) -> bool {
        kana_pattern(s).is_some()
    }

    #[test]
    fn marks() {
        assert!(mark("a\u{301}\u{301}"));
        assert!(mark("\u{E1}\u{301}")); // á + U+0301: the mark it already has
        assert!(mark("i\u{307}"));
        assert!(mark("\u{131}\u{308}"));
        assert!(mark("a\u{300}\u{301}\u{302}\u{303}\u{304}"));
        assert!(mark("\u{5D0}\u{301}"));
        assert!(mark("1\u{301}"));
        assert!(!mark("\u{E9}t\u{E9}"));
        assert!(!mark("e\u{301}"));
        assert!(!mark("a\u{301}\u{300}"));
        assert!(!mark("\u{915}\u{93F}"));
        assert!(!mark("\u{5E9}\u{5C1}"));
    }

    #[test]
    fn kana_and_cjk() {
        assert!(kana("a\u{30CE}b"));
        assert!(kana("ab\u{30F3}"));
        assert!(!kana("\u{30C6}\u{30B9}\u{30C8}\u{30CE}"));
        assert!(kana("a\u{30FC}b"));
        assert!(kana("\u{30FC}\u{30C6}"));
        assert!(!kana("\u{30C6}\u{30FC}\u{30D7}"));
        assert!(kana("a\u{4E00}b"));
        assert!(!kana("\u{4E00}\u{4E8C}"));
        assert!(kana("\u{30AB}\u{3079}\u{30AB}"));
        assert!(!kana("\u{304B}\u{3079}\u{304B}"));
        assert!(kana("a\u{30FB}b"));
        assert!(kana("a\u{30FD}"));
        // A digit is of no script: it is no kana before an iteration mark, and no CJK next to
        // a stroke in a label that mixes scripts (issue 41).
        assert!(kana("a1\u{30FD}"));
        assert!(kana("d12\u{4E00}"));
        assert!(!kana("\u{4E00}123"));
        assert!(kana("google\u{4E03}com"));
        assert!(kana("com\u{4E36}test"));
        assert!(!kana("\u{4E36}\u{4E40}\u{4E41}\u{4E3F}"));
        assert!(!kana("\u{3127}\u{751F}gamer"));
        assert!(!kana("\u{30D3}\u{30BF}\u{30DF}\u{30F3}b1"));
    }

    #[test]
    fn tld_letters() {
        assert!(tld_pattern("a\u{FE}cdef", "com").is_some());
        assert!(tld_pattern("a\u{FE}cdef", "is").is_none());
        assert!(tld_pattern("mn\u{F0}pqr", "com").is_some());
        assert!(tld_pattern("\u{259}xample", "com").is_some());
        assert!(tld_pattern("\u{259}xample", "az").is_none());
        assert!(tld_pattern("\u{FE}", "com").is_none());
        assert!(tld_pattern("l\u{B7}l", "cat").is_none());
        assert!(tld_pattern("l\u{B7}l", "com").is_some());
        assert!(tld_pattern("a\u{B7}l", "cat").is_some());
        assert!(tld_pattern("l\u{B7}", "cat").is_some());
        assert!(tld_pattern("\u{B7}l", "cat").is_some());
    }
}
