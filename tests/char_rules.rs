//! `invisible-character`, `not-nfkc` and `confusable-delimiter`: the attacks they exist for
//! fire, with the right span, severity and message; realistic text in many scripts (hosts,
//! paths, queries, fragments) stays quiet; the Unicode data they use agrees with the crates
//! that carry it (`unicode-security` for Default_Ignorable_Code_Point, `idna` for ContextJ).

mod common;

use common::{Found, e, findings_of, spans_of, w};
use irilint::rules::{self, Selection, Severity};

const INVISIBLE: &str = "invisible-character";
const NFKC: &str = "not-nfkc";
const DELIMITER: &str = "confusable-delimiter";
const MINE: [&str; 3] = [INVISIBLE, NFKC, DELIMITER];

/// The findings of the three rules, all rules running.
fn findings(iri: &str) -> Vec<Found> {
    findings_of(iri, &MINE)
}

/// The findings of `rule` as (severity, span).
fn of(iri: &str, rule: &str) -> Vec<(Severity, String)> {
    spans_of(findings(iri), rule)
}

fn assert_quiet(iris: &[&str]) {
    common::assert_quiet(iris, findings);
}

/// No message or help may carry an invisible or control character raw.
fn assert_displayable(found: &[Found]) {
    for f in found {
        for s in [&f.message, &f.help] {
            assert!(
                !s.chars().any(irilint::iri::chars::is_unsafe_to_display),
                "raw hidden character in {s:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Real text stays quiet.

/// Realistic IRIs in many scripts: none of the three rules may fire.
const MULTILINGUAL: &[&str] = &[
    // Japanese: Han, Hiragana, Katakana, the long vowel mark, iteration marks.
    "https://ja.wikipedia.org/wiki/東京都",
    "https://例え.テスト/パス/日本語のページ?検索=ラーメン#見出し",
    "https://www.example.jp/ニュース/2024年/記事一覧ー/々/ゝゞヽヾ",
    "https://ja.example/今日は晴れ。/ノート",
    // Chinese, simplified and traditional.
    "https://zh.wikipedia.org/wiki/中华人民共和国",
    "https://例子.中国/路径/简体中文?查询=北京#第一章",
    "https://zh.wikipedia.org/wiki/臺灣",
    // Korean, including compatibility jamo as typed on a Korean keyboard.
    "https://ko.wikipedia.org/wiki/대한민국",
    "https://한국어.kr/경로/검색?질문=서울#소개",
    "https://example.kr/search?q=ㅋㅋㅋ&r=ㄱ",
    // Arabic, Persian with ZWNJ, Urdu.
    "https://ar.wikipedia.org/wiki/اللغة_العربية",
    "https://مثال.إختبار/مسار?سؤال=قيمة#جزء",
    "https://fa.wikipedia.org/wiki/می\u{200C}خواهم",
    "https://example.ir/کتاب\u{200C}ها/نامه\u{200C}ای?q=خانه\u{200C}ها",
    "https://می\u{200C}خواهم.ایران/",
    "https://ur.wikipedia.org/wiki/اردو_زبان",
    "https://example.pk/پاکستان/لاہور",
    "https://example.com/تخفيض-٥٠٪",
    // Hebrew and Yiddish (with points and the Yiddish ligatures).
    "https://he.wikipedia.org/wiki/עברית",
    "https://דוגמה.ישראל/נתיב",
    "https://yi.wikipedia.org/wiki/ייִדיש",
    "https://yi.wikipedia.org/wiki/װיקיפּעדיע",
    // Hindi with virama + ZWJ / ZWNJ, Marathi eyelash ra, Bengali ya-phala after ra, Sinhala.
    "https://hi.wikipedia.org/wiki/हिन्दी",
    "https://उदाहरण.भारत/पथ/क्\u{200D}ष/क्\u{200C}ष",
    "https://क्\u{200D}ष.भारत/",
    "https://mr.wikipedia.org/wiki/र्\u{200D}य",
    "https://bn.wikipedia.org/wiki/বাংলা_ভাষা",
    "https://example.bd/খবর/র\u{200D}্যাব",
    "https://si.wikipedia.org/wiki/ශ්\u{200D}රී_ලංකාව",
    // Tamil, Thai (SARA AM), Lao.
    "https://ta.wikipedia.org/wiki/தமிழ்",
    "https://th.wikipedia.org/wiki/ภาษาไทย",
    "https://ตัวอย่าง.ไทย/น้ำ/คำถาม?q=ทำ",
    "https://lo.wikipedia.org/wiki/ພາສາລາວ/ຄຳ",
    // Tamazight in Tifinagh with the labialization mark.
    "https://zgh.example/ⴰⴳⵯⵍⵍⵉⴷ",
    // Greek with tonos and dialytika.
    "https://el.wikipedia.org/wiki/Ελληνική_γλώσσα",
    "https://παράδειγμα.δοκιμή/ΐ/ΰ?ερώτηση=τιμή",
    // Cyrillic: Russian, Ukrainian, Serbian.
    "https://ru.wikipedia.org/wiki/Русский_язык",
    "https://пример.рф/путь?запрос=значение#раздел",
    "https://uk.wikipedia.org/wiki/Українська_мова/ґанок/їжак/єнот",
    "https://sr.wikipedia.org/wiki/Српски_језик/љубав/њива/ђак/ћерка/џем",
    // Georgian, Armenian (with the ech-yiwn ligature and the full stop), Amharic.
    "https://ka.wikipedia.org/wiki/ქართული_ენა",
    "https://hy.wikipedia.org/wiki/Հայերեն",
    "https://example.am/երևան/Բարև։",
    "https://am.wikipedia.org/wiki/አማርኛ",
    "https://example.et/ኢትዮጵያ",
    // Vietnamese: stacked diacritics, precomposed (NFC).
    "https://vi.wikipedia.org/wiki/Tiếng_Việt",
    "https://ví-dụ.việt.nam/đường-dẫn/Nguyễn_Thị_Định?tìm=phở#mục-lục",
    "https://example.vn/ệ/ở/ữ/ặ/ỗ",
    // Turkish dotless and dotted i, German sharp s.
    "https://tr.wikipedia.org/wiki/Türkçe",
    "https://example.com.tr/ılık/İstanbul",
    "https://de.wikipedia.org/wiki/Straße",
    "https://straße.de/Größe?maß=groß",
    // Emoji: ZWJ sequences, VS16, skin tones, keycaps, flags.
    "https://example.com/\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
    "https://example.com/\u{2764}\u{FE0F}",
    "https://example.com/\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}/\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}?q=1\u{FE0F}\u{20E3}#\u{1F9D1}\u{200D}\u{1F91D}\u{200D}\u{1F9D1}",
    "https://example.com/\u{1F3C3}\u{200D}\u{2640}\u{FE0F}/\u{1F441}\u{FE0F}\u{200D}\u{1F5E8}\u{FE0F}",
    "https://example.com/\u{2764}\u{FE0F}\u{200D}\u{1F525}?tag=\u{2122}\u{FE0F}",
    "https://example.com/\u{1F1EF}\u{1F1F5}/\u{1F44D}\u{1F3FD}",
    "https://i\u{2764}\u{FE0F}.ws/",
    // Mongolian: the vowel separator before a final A.
    "https://mn.example/ᠮᠣᠩᠭᠣᠯ/ᠬᠠᠷ\u{180E}ᠠ",
    // Percent-encoded forms of everything are fine.
    "https://example.com/a%E2%80%8Bb/%EF%AC%81/%E2%88%95",
];

#[test]
fn multilingual_text_is_quiet() {
    assert_quiet(MULTILINGUAL);
}

// ---------------------------------------------------------------------------------------------
// invisible-character

#[test]
fn zero_width_characters_in_a_host() {
    assert_eq!(
        of("https://exa\u{200B}mple.com/", INVISIBLE),
        [e("\u{200B}")]
    );
    assert_eq!(
        of("https://pay\u{200D}pal.com/", INVISIBLE),
        [e("\u{200D}")]
    );
    assert_eq!(
        of("https://pay\u{200C}pal.com/", INVISIBLE),
        [e("\u{200C}")]
    );
    assert_eq!(of("https://exam\u{AD}ple.com/", INVISIBLE), [e("\u{AD}")]);
    assert_eq!(
        of("https://example.com\u{FEFF}/", INVISIBLE),
        [e("\u{FEFF}")]
    );
    let found = findings("https://exa\u{200B}mple.com/");
    assert!(found[0].message.contains("U+200B ZERO WIDTH SPACE"));
    assert!(found[0].message.contains("in the host"));
    assert!(found[0].help.starts_with("remove it"));
    assert!(found[0].help.contains("changes which resource"));
    assert_displayable(&found);
}

#[test]
fn hangul_fillers() {
    assert_eq!(
        of("https://\u{3164}.example.com/", INVISIBLE),
        [e("\u{3164}")]
    );
    assert_eq!(
        of("https://exa\u{115F}mple.com/", INVISIBLE),
        [e("\u{115F}")]
    );
    assert_eq!(
        of("https://example.com/\u{1160}x\u{FFA0}", INVISIBLE),
        [e("\u{1160}"), e("\u{FFA0}")]
    );
    let found = findings("https://\u{3164}.example.com/");
    assert!(found[0].message.contains("Hangul filler"), "{found:?}");
}

#[test]
fn trojan_source_classes() {
    // Zero-width characters inside a word, a word joiner, invisible math operators, the
    // Mongolian vowel separator outside Mongolian, a soft hyphen, interlinear annotations.
    for (iri, span) in [
        ("https://example.com/admin\u{200B}/", "\u{200B}"),
        ("https://example.com/a\u{2060}b", "\u{2060}"),
        ("https://example.com/?q=a\u{2062}b", "\u{2062}"),
        ("https://example.com/a\u{180E}b", "\u{180E}"),
        ("https://example.com/in\u{AD}voice", "\u{AD}"),
        ("https://example.com/#x\u{FFF9}y\u{FFFB}", "\u{FFF9}"),
        ("https://example.com/a\u{34F}b", "\u{34F}"),
        ("https://example.com/a\u{17B4}b", "\u{17B4}"),
        ("https://user\u{200B}@example.com/", "\u{200B}"),
    ] {
        let got = of(iri, INVISIBLE);
        assert!(got.contains(&e(span)), "{iri}: {got:?}");
    }
}

#[test]
fn tag_character_smuggling() {
    let iri = "https://example.com/report\u{E0041}\u{E0042}\u{E0043}.pdf";
    assert_eq!(of(iri, INVISIBLE), [e("\u{E0041}\u{E0042}\u{E0043}")]);
    let found = findings(iri);
    assert!(found[0].message.contains("spell `ABC`"), "{found:?}");
    assert!(found[0].message.contains("3 invisible characters"));
    assert_displayable(&found);
    // Outside `ucschar`, but reported once, here, not by `syntax-invalid`.
    let all = rules::check(iri, &Selection::all());
    assert!(all.iter().all(|f| f.rule.id != "syntax-invalid"), "{all:?}");
    // A lone tag in a query and a host.
    assert_eq!(
        of("https://example.com/?q=\u{E0041}", INVISIBLE),
        [e("\u{E0041}")]
    );
    assert_eq!(of("https://a\u{E0020}b.com/", INVISIBLE), [e("\u{E0020}")]);
}

#[test]
fn emoji_tag_sequences_are_reported_with_a_way_to_keep_the_flag() {
    let tags = "\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
    let iri = format!("https://example.com/\u{1F3F4}{tags}");
    assert_eq!(of(&iri, INVISIBLE), [e(tags)]);
    let found = findings(&iri);
    assert!(found[0].message.contains("emoji tag sequence"), "{found:?}");
    assert!(found[0].help.contains("%F3%A0%81%A7"), "{found:?}");
}

#[test]
fn runs_are_one_finding() {
    assert_eq!(
        of(
            "https://example.com/a\u{200B}\u{200B}\u{2060}\u{FEFF}b",
            INVISIBLE
        ),
        [e("\u{200B}\u{200B}\u{2060}\u{FEFF}")]
    );
    // Separate runs in separate components.
    assert_eq!(
        of("https://a\u{200B}b.com/c\u{200B}d?e=\u{200B}", INVISIBLE),
        [e("\u{200B}"), e("\u{200B}"), e("\u{200B}")]
    );
    let found = findings("https://example.com/a\u{200B}\u{2060}b");
    assert!(
        found[0]
            .message
            .contains("U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER")
    );
}

#[test]
fn bidi_controls_are_left_to_their_rule() {
    for c in [
        '\u{200E}', '\u{200F}', '\u{061C}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
    ] {
        assert!(of(&format!("https://example.com/a{c}b"), INVISIBLE).is_empty());
    }
}

#[test]
fn joiners_outside_their_contexts() {
    // Latin: no virama, no joining letters.
    assert_eq!(
        of("https://example.com/pay\u{200C}pal", INVISIBLE),
        [e("\u{200C}")]
    );
    assert_eq!(
        of("https://example.com/pay\u{200D}pal", INVISIBLE),
        [e("\u{200D}")]
    );
    // At the start of a component: nothing before it.
    assert_eq!(
        of("https://example.com/\u{200C}\u{645}", INVISIBLE),
        [e("\u{200C}")]
    );
    // ZWJ after a consonant without virama, in Devanagari.
    assert_eq!(
        of("https://example.com/क\u{200D}ष", INVISIBLE),
        [e("\u{200D}")]
    );
    // Emoji ZWJ sequences are fine in paths but not in a host (IDNA ContextJ).
    assert_eq!(
        of("https://\u{1F468}\u{200D}\u{1F469}.example/", INVISIBLE),
        [e("\u{200D}")]
    );
    // A ZWJ between an emoji and a letter is no emoji sequence.
    assert_eq!(
        of("https://example.com/\u{1F468}\u{200D}a", INVISIBLE),
        [e("\u{200D}")]
    );
    // The Bengali ZWJ before a virama is fine in a path, not in a host.
    assert_eq!(of("https://র\u{200D}্যাব.বাংলা/", INVISIBLE), [e("\u{200D}")]);
}

#[test]
fn redundant_persian_zwnj_is_a_warning_outside_the_host() {
    // After U+0631 REH, which never joins on its left: the ZWNJ changes nothing visible.
    assert_eq!(
        of("https://example.ir/دیوار\u{200C}ها", INVISIBLE),
        [w("\u{200C}")]
    );
    assert_eq!(
        of("https://دیوار\u{200C}ها.ایران/", INVISIBLE),
        [e("\u{200C}")]
    );
    // At the end of a word, after a letter: typed, invisible, a warning.
    assert_eq!(
        of("https://example.ir/خانه\u{200C}", INVISIBLE),
        [w("\u{200C}")]
    );
    // Next to a Latin letter it is no Persian typing.
    assert_eq!(
        of("https://example.com/a\u{200C}ب", INVISIBLE),
        [e("\u{200C}")]
    );
    // ZWJ that forces a joining form on a letter without a partner is visible (`ه\u{200D}` as an
    // abbreviation); between letters that join anyway it is not.
    assert!(of("https://example.ir/ه\u{200D}.ش", INVISIBLE).is_empty());
    assert_eq!(
        of("https://example.ir/ب\u{200D}ب", INVISIBLE),
        [w("\u{200D}")]
    );
    // Harakat between the letter and the ZWNJ are transparent.
    assert!(of("https://example.ir/بَ\u{200C}ب", INVISIBLE).is_empty());
}

#[test]
fn zwsp_as_a_word_break_in_thai_and_khmer_is_a_warning() {
    assert_eq!(
        of("https://example.th/ภาษา\u{200B}ไทย", INVISIBLE),
        [w("\u{200B}")]
    );
    assert_eq!(
        of("https://example.kh/ភាសា\u{200B}ខ្មែរ", INVISIBLE),
        [w("\u{200B}")]
    );
    assert_eq!(
        of("https://ภาษา\u{200B}ไทย.th/", INVISIBLE),
        [e("\u{200B}")]
    );
    assert_eq!(
        of("https://example.th/ไทย\u{200B}a", INVISIBLE),
        [e("\u{200B}")]
    );
}

#[test]
fn variation_selectors() {
    // VS16 after a letter, VS1 after a letter, text-style VS15 after a digit without keycap.
    assert_eq!(
        of("https://example.com/a\u{FE0F}b", INVISIBLE),
        [e("\u{FE0F}")]
    );
    assert_eq!(
        of("https://example.com/a\u{FE00}b", INVISIBLE),
        [e("\u{FE00}")]
    );
    assert_eq!(
        of("https://example.com/1\u{FE0E}", INVISIBLE),
        [e("\u{FE0E}")]
    );
    assert_eq!(
        of("https://goo\u{FE0F}gle.com/", INVISIBLE),
        [e("\u{FE0F}")]
    );
    // An ideographic variation selector: outside `ucschar`, reported here with its encoding.
    let found = findings("https://example.jp/葛\u{E0100}城市");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].help.contains("%F3%A0%84%80"), "{found:?}");
    // Mongolian free variation selectors: fine after a Mongolian letter, not in a host or
    // after a Latin letter.
    assert!(of("https://mn.example/ᠭ\u{180B}ᠠ", INVISIBLE).is_empty());
    assert_eq!(of("https://ᠭ\u{180B}ᠠ.mn/", INVISIBLE), [e("\u{180B}")]);
    assert_eq!(
        of("https://example.com/g\u{180B}", INVISIBLE),
        [e("\u{180B}")]
    );
}

#[test]
fn scheme_and_port_are_covered() {
    // `syntax-invalid` leaves default-ignorable characters to this rule, wherever they are.
    assert_eq!(
        of("ht\u{200B}tp://example.com/", INVISIBLE),
        [e("\u{200B}")]
    );
    assert_eq!(
        of("http://example.com:80\u{200B}/", INVISIBLE),
        [e("\u{200B}")]
    );
}

/// Default_Ignorable_Code_Point as hand-listed in `iri::chars` (Unicode 16.0) is exactly the
/// set `unicode-security` (Unicode 18.0) drops from skeletons.
#[test]
fn default_ignorable_matches_unicode_security() {
    let mut buf = [0u8; 4];
    let mismatches: Vec<String> = ('\0'..=char::MAX)
        .filter(|&c| {
            let dropped = unicode_security::skeleton(c.encode_utf8(&mut buf))
                .next()
                .is_none();
            dropped != irilint::iri::chars::is_default_ignorable(c)
        })
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

/// ContextJ for ZWNJ, as this rule applies it in a host, agrees with the `idna` crate (which
/// reads Joining_Type from ICU4X) for every letter and mark of the joining scripts.
#[test]
fn contextj_agrees_with_idna() {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    let uts46 = Uts46::new();
    let valid = |label: &str| {
        uts46
            .to_ascii(
                label.as_bytes(),
                AsciiDenyList::EMPTY,
                Hyphens::Allow,
                DnsLength::Ignore,
            )
            .is_ok()
    };
    let quiet = |label: &str| of(&format!("http://{label}.example/"), INVISIBLE).is_empty();
    // Each block with a dual-joining letter of its script as the partner.
    let blocks: &[(u32, u32, char)] = &[
        (0x0600, 0x06FF, '\u{0628}'),
        (0x0700, 0x074F, '\u{0712}'),
        (0x0750, 0x077F, '\u{0628}'),
        (0x07C0, 0x07FF, '\u{07CA}'),
        (0x0840, 0x085F, '\u{0841}'),
        (0x0860, 0x086F, '\u{0860}'),
        (0x0870, 0x08FF, '\u{0628}'),
        (0x1800, 0x18AF, '\u{1820}'),
        (0xA840, 0xA87F, '\u{A840}'),
        (0x10AC0, 0x10AFF, '\u{10AC0}'),
        (0x10B80, 0x10BAF, '\u{10B80}'),
        (0x10D00, 0x10D3F, '\u{10D01}'),
        (0x10EC0, 0x10EFF, '\u{10EC3}'),
        (0x10F30, 0x10F6F, '\u{10F30}'),
        (0x10F70, 0x10FAF, '\u{10F70}'),
        (0x10FB0, 0x10FDF, '\u{10FB0}'),
        (0x1E900, 0x1E95F, '\u{1E900}'),
    ];
    let mut disagree = Vec::new();
    let mut probes = 0;
    for &(lo, hi, p) in blocks {
        // UTS #46 maps U+0678 (dual-joining) to U+064A U+0674 (non-joining) before ContextJ.
        for x in (lo..=hi)
            .filter_map(char::from_u32)
            .filter(|&x| x != '\u{0678}')
        {
            for (plain, with) in [
                (format!("{x}{p}"), format!("{x}\u{200C}{p}")),
                (format!("{p}{x}"), format!("{p}\u{200C}{x}")),
                (format!("{p}{x}{p}"), format!("{p}{x}\u{200C}{p}")),
            ] {
                // Only where the label is valid without the ZWNJ: then ContextJ decides.
                if !valid(&plain) || !quiet(&plain) {
                    continue;
                }
                probes += 1;
                if valid(&with) != quiet(&with) {
                    disagree.push(format!(
                        "{:?}: idna {}, irilint {}",
                        with,
                        valid(&with),
                        quiet(&with)
                    ));
                }
            }
        }
    }
    assert!(probes > 1000, "only {probes} probes");
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// confusable-delimiter

#[test]
fn the_classic_division_slash_attack() {
    let iri = "https://example.com\u{2215}login.evil.com/";
    assert_eq!(of(iri, DELIMITER), [e("\u{2215}")]);
    let found = findings(iri);
    assert!(
        found[0]
            .message
            .contains("the host is `example.com\u{2215}login.evil.com`, not `example.com`"),
        "{found:?}"
    );
    assert!(
        found[0]
            .message
            .contains("U+2215 DIVISION SLASH looks like '/'")
    );
    assert_displayable(&found);
    // The host is what a reader does not see: escaped when it holds hidden characters.
    let found = findings("https://exa\u{200B}mple.com\u{2215}evil.com/");
    let delimiter = found.iter().find(|f| f.rule == DELIMITER).unwrap();
    assert!(
        delimiter
            .message
            .contains("the host is `exa⟨U+200B⟩mple.com\u{2215}evil.com`"),
        "{found:?}"
    );
    assert_displayable(&found);
}

#[test]
fn fake_userinfo_query_and_fragment() {
    let found = findings("https://paypal.com\u{FF20}evil.com/");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .message
            .contains("the host is `paypal.com\u{FF20}evil.com`, not `evil.com`"),
        "{found:?}"
    );
    assert_eq!(
        of("https://example.com/a\u{FF1F}b=c", DELIMITER),
        [e("\u{FF1F}")]
    );
    assert!(
        findings("https://example.com/a\u{FF1F}b=c")[0]
            .message
            .contains("no query starts here")
    );
    assert_eq!(
        of("https://example.com/a\u{FF03}b", DELIMITER),
        [e("\u{FF03}")]
    );
    assert_eq!(
        of("https://example.com/?a=1\u{FF06}b\u{FF1D}2", DELIMITER),
        [e("\u{FF06}"), e("\u{FF1D}")]
    );
    assert!(
        findings("https://example.com/?a=1\u{FF06}b=2")[0]
            .message
            .contains("query parameter `a=1\u{FF06}b=2`")
    );
}

#[test]
fn every_required_lookalike_is_an_error_between_ascii_letters() {
    for c in [
        '\u{2215}', '\u{2044}', '\u{29F8}', '\u{FF0F}', '\u{2024}', '\u{FE52}', '\u{FF0E}',
        '\u{0589}', '\u{2236}', '\u{FF1A}', '\u{FE13}', '\u{FF1F}', '\u{FF03}', '\u{FF20}',
        '\u{FF05}', '\u{066A}', '\u{2052}',
    ] {
        // (U+FF0E in a host is a UTS #46 label separator: see `ideographic_full_stops`.)
        let host = (c != '\u{FF0E}').then(|| format!("https://a{c}b.example.com/"));
        for iri in [
            Some(format!("https://example.com/a{c}b")),
            host,
            Some(format!("https://example.com/?q=a{c}b#c")),
        ]
        .into_iter()
        .flatten()
        {
            let span = c.to_string();
            assert_eq!(of(&iri, DELIMITER), [e(&span)], "{iri}");
            // Compatibility characters among them are this rule's, not `not-nfkc`'s.
            assert!(of(&iri, NFKC).is_empty(), "{iri}");
        }
    }
}

#[test]
fn ideographic_full_stops() {
    // Label separators for UTS #46, not for RFC 3986: a warning in a host.
    for c in ['\u{3002}', '\u{FF0E}', '\u{FF61}'] {
        let iri = format!("https://例え{c}jp/");
        assert_eq!(of(&iri, DELIMITER), [w(&c.to_string())], "{iri}");
        assert!(of(&iri, NFKC).is_empty(), "{iri}");
    }
    let found = findings("https://例え\u{3002}jp/");
    assert!(found[0].message.contains("UTS #46"), "{found:?}");
    // Elsewhere U+3002 and U+FF61 are punctuation (U+FF61 is a half-width form for
    // `not-nfkc`); U+FF0E looks like '.'.
    assert!(of("https://example.jp/晴れ\u{3002}", DELIMITER).is_empty());
    assert!(of("https://example.jp/晴れ\u{FF61}", DELIMITER).is_empty());
    assert_eq!(of("https://example.jp/晴れ\u{FF61}", NFKC), [w("\u{FF61}")]);
    assert_eq!(
        of("https://example.com/invoice\u{FF0E}pdf", DELIMITER),
        [e("\u{FF0E}")]
    );
}

/// A mail domain is a name, as a host is: its UTS #46 full stops are label separators for mail
/// software that applies UTS #46 (a warning, as in a host), not look-alikes in a path segment;
/// the local part is not a name.
#[test]
fn full_stops_in_a_mail_domain_are_label_separators() {
    for c in ['\u{3002}', '\u{FF0E}', '\u{FF61}'] {
        let iri = format!("mailto:info@例え{c}jp");
        assert_eq!(of(&iri, DELIMITER), [w(&c.to_string())], "{iri}");
        assert!(of(&iri, NFKC).is_empty(), "{iri}");
        let found = findings(&iri);
        assert!(found[0].message.contains("in the mail domain"), "{found:?}");
        assert!(
            found[0].message.contains(&format!("`例え{c}jp`")),
            "{found:?}"
        );
    }
    // In the local part, U+FF0E is a look-alike of '.' and U+3002 punctuation, as in a path.
    assert_eq!(
        of("mailto:a\u{FF0E}b@example.com", DELIMITER),
        [e("\u{FF0E}")]
    );
    assert!(of("mailto:a\u{3002}b@example.com", DELIMITER).is_empty());
    // Not a mail address: a path.
    assert_eq!(of("news:a@b\u{FF0E}c", DELIMITER), [e("\u{FF0E}")]);
}

#[test]
fn letters_and_script_punctuation_are_not_delimiters() {
    assert_quiet(&[
        "https://ja.wikipedia.org/wiki/ノート",
        "https://example.com/٢٠٢٤/٠٩",
        "https://hy.example/Երևան։",
        "https://example.com/%EF%BC%8F",
    ]);
    // Half-width ノ is a letter too: only `not-nfkc` reports it.
    assert_eq!(of("https://example.jp/\u{FF89}", DELIMITER), []);
    // Script punctuation next to ASCII is a look-alike.
    assert_eq!(
        of("https://example.com/sale-50\u{066A}", DELIMITER),
        [e("\u{066A}")]
    );
    assert_eq!(
        of("https://example.com/a\u{0589}b", DELIMITER),
        [e("\u{0589}")]
    );
    // In a host, always an error.
    assert_eq!(of("https://Երևան\u{0589}am/", DELIMITER), [e("\u{0589}")]);
}

#[test]
fn cjk_fullwidth_punctuation_is_a_warning_in_cjk_text() {
    assert_eq!(
        of("https://example.jp/よくある質問/なぜ\u{FF1F}", DELIMITER),
        [w("\u{FF1F}")]
    );
    assert_eq!(
        of("https://example.jp/why\u{FF1F}", DELIMITER),
        [e("\u{FF1F}")]
    );
}

// ---------------------------------------------------------------------------------------------
// not-nfkc

#[test]
fn compatibility_characters_fire() {
    for (iri, span) in [
        ("https://example.com/\u{FB01}le", "\u{FB01}"),
        (
            "https://example.com/\u{FF21}\u{FF22}\u{FF23}",
            "\u{FF21}\u{FF22}\u{FF23}",
        ),
        (
            "https://example.com/\u{FF76}\u{FF80}\u{FF76}\u{FF85}",
            "\u{FF76}\u{FF80}\u{FF76}\u{FF85}",
        ),
        ("https://example.com/x\u{B2}", "\u{B2}"),
        ("https://example.com/\u{2460}", "\u{2460}"),
        ("https://example.com/\u{216B}", "\u{216B}"),
        ("https://example.com/\u{337F}", "\u{337F}"),
        ("https://example.com/more\u{2026}", "\u{2026}"),
        ("https://example.com/brand\u{2122}", "\u{2122}"),
        ("https://example.com/\u{BD}", "\u{BD}"),
        ("https://example.com/\u{FEFB}", "\u{FEFB}"),
        ("https://example.com/\u{2F00}", "\u{2F00}"),
        ("https://\u{FF45}\u{FF58}ample.com/", "\u{FF45}\u{FF58}"),
        ("https://example.com/#\u{3231}", "\u{3231}"),
    ] {
        assert_eq!(of(iri, NFKC), [w(span)], "{iri}");
    }
    let found = findings("https://example.com/\u{FB01}le");
    assert!(found[0].message.contains("U+FB01 LATIN SMALL LIGATURE FI"));
    assert!(found[0].message.contains("NFKC replaces it with `fi`"));
    assert!(found[0].help.starts_with("write `fi`"), "{found:?}");
}

#[test]
fn the_help_keeps_the_structure() {
    // U+2105 CARE OF is `c/o` in NFKC: the slash must not split the segment.
    let found = findings("https://example.com/\u{2105}");
    assert!(found[0].help.contains("`c%2Fo`"), "{found:?}");
    let found = findings("https://example.com/?q=\u{2105}");
    assert!(found[0].help.contains("`c/o`"), "{found:?}");
    // A no-break space becomes a space, which an IRI must encode.
    let found = findings("https://example.com/a\u{A0}b");
    assert!(found[0].help.contains("`%20`"), "{found:?}");
}

#[test]
fn in_the_query_only_info() {
    assert_eq!(
        of("https://example.com/search?q=\u{FB01}", NFKC),
        [(Severity::Info, "\u{FB01}".to_string())]
    );
}

#[test]
fn runs_and_components() {
    // One run per component; the delimiter between them is not part of either.
    assert_eq!(
        of("https://example.com/\u{FF41}\u{FF42}/\u{FF43}", NFKC),
        [w("\u{FF41}\u{FF42}"), w("\u{FF43}")]
    );
    // Ordinary characters split runs.
    assert_eq!(
        of("https://example.com/\u{FB01}x\u{FB02}", NFKC),
        [w("\u{FB01}"), w("\u{FB02}")]
    );
    // Decomposed text is `not-nfc`'s business, not this rule's.
    assert!(of("https://example.com/cafe\u{301}", NFKC).is_empty());
    assert!(of("https://example.com/\u{212B}", NFKC).is_empty());
}
