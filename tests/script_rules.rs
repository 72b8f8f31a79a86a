//! The script and IDN rules: `mixed-script`, `confusable`, `idn-invalid` and the host look-alike
//! rules `restricted-character`, `spoof-pattern` and `lookalike-domain`.
//!
//! Attacks fire with the right span and severity; real text in 25 writing systems (hosts, paths,
//! queries, fragments, punycode) gets no finding at all from these rules.

use irilint::rules::{self, Finding, Selection, Severity};

const MINE: [&str; 6] = [
    "mixed-script",
    "confusable",
    "idn-invalid",
    "restricted-character",
    "spoof-pattern",
    "lookalike-domain",
];

/// The findings of `rule` on `iri`, spoken or withheld under a more specific look-alike finding
/// (one finding per look-alike host): each rule's own detection, in order, with its words
/// (a withheld finding's are built when it speaks).
fn findings(iri: &str, rule: &str) -> Vec<Finding> {
    fn all(f: Finding, out: &mut Vec<Finding>) {
        let mut f = f;
        f.speak();
        let withheld = std::mem::take(&mut f.withheld);
        out.push(f);
        withheld.into_iter().for_each(|w| all(w, out));
    }
    let mut out = Vec::new();
    for f in rules::check(iri, &Selection::all()) {
        all(f, &mut out);
    }
    out.retain(|f| f.rule.id == rule);
    out.sort_by_key(|f| (f.range.start, f.range.end));
    out
}

/// The text each finding of `rule` covers.
fn spans(iri: &str, rule: &str) -> Vec<String> {
    findings(iri, rule)
        .iter()
        .map(|f| iri[f.range.clone()].to_string())
        .collect()
}

fn assert_fires(rule: &str, iris: &[&str]) {
    for iri in iris {
        assert!(
            !findings(iri, rule).is_empty(),
            "{rule} should fire on {iri:?}"
        );
    }
}

fn assert_quiet(rule: &str, iris: &[&str]) {
    for iri in iris {
        let f = findings(iri, rule);
        assert!(
            f.is_empty(),
            "{rule} should be quiet on {iri:?}: {:?}",
            f.iter().map(|f| &f.message).collect::<Vec<_>>()
        );
    }
}

/// Real IRIs in many writing systems: none of the three rules may say anything.
const CLEAN: &[&str] = &[
    // Japanese
    "https://例え.テスト/ページ/説明書?検索=東京タワー#概要",
    "https://www.例え.テスト/",
    "https://ja.wikipedia.org/wiki/日本語",
    "https://www.example.jp/ニュース/2024年版/iPhoneケース",
    "https://例え.jp/日本語のページ",
    "https://www.amazon.co.jp/ノートパソコン-Windows11/s?k=ノートPC",
    "https://example.jp/価格：1000円",
    // Chinese
    "https://例子.中国/首页?关键词=北京",
    "https://zh.wikipedia.org/wiki/中华人民共和国",
    "https://例子.台灣/說明文件/第一章",
    "https://www.baidu.com/s?wd=中文&ie=utf-8",
    "https://中文.公司/关于我们",
    "https://example.com/Hello世界",
    // Korean
    "https://예시.테스트/페이지?검색=서울#소개",
    "https://ko.wikipedia.org/wiki/한국어",
    "https://한국어.kr/뉴스/2024년",
    "https://search.naver.com/search.naver?query=카카오톡KakaoTalk",
    // Arabic
    "https://مثال.إختبار/صفحة/الرئيسية?بحث=قاموس#نتائج",
    "https://ar.wikipedia.org/wiki/اللغة_العربية",
    "https://example.com/مقالات/٢٠٢٤/",
    "https://موقع.مصر/",
    // Persian, with ZWNJ
    "https://fa.wikipedia.org/wiki/زبان_فارسی",
    "https://مثال.ایران/می\u{200C}خواهم/کتاب\u{200C}ها",
    "https://کتاب\u{200C}ها.ایران/",
    // Urdu
    "https://ur.wikipedia.org/wiki/اردو",
    "https://مثال.پاکستان/صفحہ",
    // Hebrew, Yiddish
    "https://דוגמה.טעסט/עמוד/ראשי",
    "https://he.wikipedia.org/wiki/עברית",
    "https://www.example.co.il/חדשות?עמוד=2",
    "https://yi.wikipedia.org/wiki/ייִדיש",
    // Hindi, with ZWJ and ZWNJ after a virama
    "https://hi.wikipedia.org/wiki/हिन्दी",
    "https://उदाहरण.परीक्षा/पृष्ठ",
    "https://example.in/शब्द/क्\u{200D}ष/क्\u{200C}ष",
    "https://क्\u{200D}ष.भारत/",
    // Bengali, Tamil, Thai
    "https://bn.wikipedia.org/wiki/বাংলা_ভাষা",
    "https://ta.wikipedia.org/wiki/தமிழ்",
    "https://உதாரணம்.பரிட்சை/பக்கம்",
    "https://th.wikipedia.org/wiki/ภาษาไทย",
    "https://ตัวอย่าง.ไทย/หน้า",
    // Greek
    "https://el.wikipedia.org/wiki/Ελληνική_γλώσσα",
    "https://παράδειγμα.δοκιμή/σελίδα",
    "https://ελληνικά.gr/",
    "https://xn--nxasmq6b.com/",
    // Russian: whole-script look-alikes under Cyrillic TLDs, common words that spell no Latin word
    "https://пример.рф/документы?раздел=новости",
    "https://ru.wikipedia.org/wiki/Русский_язык",
    "https://курс.com/",
    "https://сахар.ru/",
    "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}.рф/",
    "https://ru.wikipedia.org/wiki/Файл:Пример.jpg",
    "https://ru.wikipedia.org/wiki/File:Пример.jpg",
    "https://example.com/Windows-приложения",
    "https://yandex.ru/search/?text=купить+iPhone",
    "https://www.google.com/search?q=русский+язык",
    "https://example.com/%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80-страница",
    // Ukrainian, Serbian
    "https://uk.wikipedia.org/wiki/Українська_мова",
    "https://приклад.укр/сторінка",
    "https://їжак.укр/",
    "https://sr.wikipedia.org/wiki/Српски_језик",
    "https://пример.срб/страна",
    // Georgian, Armenian, Amharic
    "https://ka.wikipedia.org/wiki/ქართული_ენა",
    "https://მაგალითი.გე/",
    "https://hy.wikipedia.org/wiki/Հայերեն",
    "https://օրինակ.հայ/էջ",
    "https://am.wikipedia.org/wiki/አማርኛ",
    "https://ምሳሌ.et/",
    // Vietnamese (stacked diacritics), Turkish (dotless i), German (sharp s), French, Spanish
    "https://vi.wikipedia.org/wiki/Tiếng_Việt",
    "https://ví-dụ.vn/trang-chủ?tìm=phở#mục-lục",
    "https://tiếng-việt.vn/",
    "https://tr.wikipedia.org/wiki/Türkçe",
    "https://örnek.com.tr/ılık-ışık",
    "https://kırmızı.com.tr/",
    "https://faß.de/Straße",
    "https://xn--fa-hia.de/",
    "https://bücher.example/Übersicht",
    "https://münchen.de/",
    "https://exemple.fr/résumé",
    "https://es.wikipedia.org/wiki/Español",
    "https://español.com/",
    // Emoji
    "https://example.com/❤️/👨\u{200D}👩\u{200D}👧?q=🎉",
    "https://xn--ls8h.la/",
    "https://😀.la/",
    // ASCII and other hosts
    "https://example.com/",
    "https://example.com./",
    "https://a--b.example/",
    "https://www.example.co.uk:8080/path?q=1#top",
    "http://127.0.0.1/",
    "http://[::1]/",
    "http://[v7.fe80::1]/",
    "ftp://ftp.example.org/pub/",
    "ws://例え.テスト/chat",
    "https://ex%61mple.com/",
    "https://%E4%BE%8B%E3%81%88.jp/",
    "//cdn.example.com/lib.js",
    "mailto:user@例え.jp",
    "mailto:info@bücher.example,admin@example.com?subject=Grüße",
    "mailto:someone@[127.0.0.1]",
    "file:///C:/Users/Пользователь/Документы",
    "urn:isbn:978-3-16-148410-0",
    "my_scheme://under_score/",
    "/relative/日本語/path",
];

#[test]
fn a_rare_ideograph_is_a_valid_idn_that_browsers_show_as_punycode() {
    // `xn--zzz` is valid Punycode for U+7BA5 CJK UNIFIED IDEOGRAPH-7BA5: a valid IDN, but
    // UTS #39 restricts the ideograph (Uncommon_Use), so browsers display the ACE form; it
    // imitates nothing, so it is a warning.
    let iri = "https://xn--zzz.com/";
    assert!(findings(iri, "idn-invalid").is_empty());
    let f = findings(iri, "restricted-character");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(f[0].message.contains("Uncommon_Use"), "{}", f[0].message);
}

#[test]
fn clean_multilingual_iris_give_no_finding() {
    let mut problems = Vec::new();
    for iri in CLEAN {
        for f in rules::check(iri, &Selection::all()) {
            if MINE.contains(&f.rule.id) {
                problems.push(format!("{iri}: {} {}", f.rule.id, f.message));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// mixed-script
// ---------------------------------------------------------------------------------------------

#[test]
fn mixed_script_fires_on_words_mixing_scripts() {
    assert_fires(
        "mixed-script",
        &[
            "https://p\u{430}ypal.com/",
            "https://g\u{3BF}ogle.com/search",
            "https://example.com/p\u{430}ssword-reset",
            "https://example.com/?user=\u{430}dmin",
            "https://example.com/#s\u{435}ction",
            "https://xn--pypal-4ve.com/",
            "https://\u{440}\u{430}\u{443}\u{440}\u{430}l.ru/",
            "https://example.com/日本\u{430}",
            "https://example.com/\u{3B1}\u{431}",
            // Characters of no script of their own count for the scripts they are used with.
            "https://example.com/\u{434}\u{30FC}",
        ],
    );
}

#[test]
fn mixed_script_covers_the_word_and_names_the_scripts() {
    let iri = "https://example.com/reset-p\u{430}ssword";
    let f = findings(iri, "mixed-script");
    assert_eq!(f.len(), 1);
    assert_eq!(&iri[f[0].range.clone()], "p\u{430}ssword");
    assert_eq!(f[0].severity, Severity::Warning);
    assert!(
        f[0].message.contains("Latin and Cyrillic"),
        "{}",
        f[0].message
    );
    assert!(f[0].message.contains("U+0430 CYRILLIC SMALL LETTER A"));
    // Punycode: the ACE label is the span, the decoded form is in the message.
    let iri = "https://xn--pypal-4ve.com/";
    let f = findings(iri, "mixed-script");
    assert_eq!(spans(iri, "mixed-script"), ["xn--pypal-4ve"]);
    assert!(f[0].message.contains("p\u{430}ypal"), "{}", f[0].message);
}

#[test]
fn mixed_script_allows_cjk_with_latin_and_separate_words() {
    assert_quiet(
        "mixed-script",
        &[
            "https://example.com/2024年版",
            "https://example.com/iPhoneケース",
            "https://example.com/Hello世界",
            "https://example.com/카카오톡KakaoTalk",
            "https://example.com/日本語のページ",
            "https://example.com/русский-english",
            "https://example.com/ελληνικά_greek",
            "https://example.com/Wiki:Статья",
            // Invisible characters are other rules' business.
            "https://example.com/\u{61C}page",
            "https://example.com/a\u{180E}b",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// confusable
// ---------------------------------------------------------------------------------------------

#[test]
fn confusable_pinpoints_a_lookalike_letter() {
    let iri = "https://p\u{430}ypal.com/";
    let f = findings(iri, "confusable");
    assert_eq!(spans(iri, "confusable"), ["\u{430}"]);
    assert_eq!(f[0].severity, Severity::Error);
    assert!(f[0].message.contains("U+0430 CYRILLIC SMALL LETTER A"));
    assert!(f[0].message.contains("U+0061 LATIN SMALL LETTER A"));

    let iri = "https://exam\u{0440}le.com/";
    assert_eq!(spans(iri, "confusable"), ["\u{440}"]);

    // Each look-alike once.
    let iri = "https://p\u{430}yp\u{430}l.com/";
    assert_eq!(spans(iri, "confusable"), ["\u{430}", "\u{430}"]);

    // Outside the host: a warning.
    let iri = "https://example.com/p\u{430}ssword";
    let f = findings(iri, "confusable");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
}

#[test]
fn confusable_flags_whole_script_lookalike_host_labels() {
    for (iri, label, reads) in [
        (
            "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}.com/",
            "\u{430}\u{440}\u{440}\u{4CF}\u{435}",
            "apple",
        ),
        (
            "https://\u{440}\u{430}\u{443}\u{440}\u{430}l.com/",
            "\u{440}\u{430}\u{443}\u{440}\u{430}l",
            "paypal",
        ),
        ("https://xn--80ak6aa92e.com/", "xn--80ak6aa92e", "apple"),
        ("https://xn--l-7sba6dbr.com/", "xn--l-7sba6dbr", "paypal"),
        (
            "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}-store.com/",
            "\u{430}\u{440}\u{440}\u{4CF}\u{435}",
            "apple",
        ),
        (
            "https://login.\u{441}\u{430}\u{445}\u{430}\u{440}.com/",
            "\u{441}\u{430}\u{445}\u{430}\u{440}",
            "caxap",
        ),
    ] {
        let f = findings(iri, "confusable");
        assert_eq!(spans(iri, "confusable"), [label], "{iri}");
        assert_eq!(f[0].severity, Severity::Error, "{iri}");
        assert!(
            f[0].message.contains(&format!("`{reads}`")),
            "{iri}: {}",
            f[0].message
        );
    }
    // The decoded form is in the message of a punycode label.
    let f = findings("https://xn--80ak6aa92e.com/", "confusable");
    assert!(f[0].message.contains("\u{430}\u{440}\u{440}\u{4CF}\u{435}"));
    // A disguised letter in a punycode label: the ACE label is the span.
    let iri = "https://xn--pypal-4ve.com/";
    let f = findings(iri, "confusable");
    assert_eq!(spans(iri, "confusable"), ["xn--pypal-4ve"]);
    assert!(
        f[0].message.contains("reads as `paypal`"),
        "{}",
        f[0].message
    );
    assert!(f[0].message.contains("U+0430 CYRILLIC SMALL LETTER A"));
    // Mixed with Latin letters: whatever the TLD.
    assert_fires(
        "confusable",
        &[
            "https://\u{440}\u{430}\u{443}\u{440}\u{430}l.ru/",
            "https://xn--pypal-4ve.com/",
        ],
    );
}

#[test]
fn confusable_respects_script_tlds_and_real_words() {
    assert_quiet(
        "confusable",
        &[
            "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}.ru/",
            "https://\u{430}\u{440}\u{440}\u{4CF}\u{435}.рф/",
            "https://xn--80ak6aa92e.xn--p1ai/",
            "https://курс.com/",
            "https://пример.com/",
            "https://сахар.ru/",
            "https://ελληνικά.com/",
            "https://דוד.il/",
            // Non-ASCII Latin letters are not look-alikes of another script.
            "https://kırmızı.com/",
            "https://bücher.com/",
            // Two words in two scripts: mixed-script says it, no disguise.
            "https://example.com/iPhoneчехол",
            // A whole-script look-alike outside the host is a word in its own script.
            "https://example.com/\u{430}\u{440}\u{440}\u{4CF}\u{435}",
            // Invisible characters are other rules' business.
            "https://example\u{3164}.com/",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// idn-invalid
// ---------------------------------------------------------------------------------------------

#[test]
fn idn_invalid_fires_on_bad_hosts() {
    let long = format!("https://{}.com/", "a".repeat(64));
    let total = format!("https://{}.com/", vec!["a".repeat(63); 4].join("."));
    assert_fires(
        "idn-invalid",
        &[
            "https://-bad-.example/",
            "https://bad-.example/",
            "https://ab--cd.example/",
            &long,
            &total,
            "https://xn--zz.com/",
            "https://xn--a.com/",
            "https://xn--abc-.com/",
            "https://a\u{05D0}.com/",
            "https://1abc.\u{5E9}\u{5DC}\u{5D5}\u{5DD}/",
            "https://my_host.example/",
            "https://a..b.example/",
            "https://\u{301}a.example/",
            "https://pay\u{200D}pal.com/",
            "https://example\u{E000}.com/",
            "https://-bad-.%E4%BE%8B.jp/",
            "mailto:someone@-bad-.example",
            "ws://-bad-.example/",
            "//-bad-.example/",
        ],
    );
}

#[test]
fn idn_invalid_names_the_label_and_the_check() {
    let cases: &[(&str, &str, &str)] = &[
        ("https://-bad-.example/", "-bad-", "starts with a hyphen"),
        ("https://ab--cd.example/", "ab--cd", "third and fourth"),
        ("https://www.xn--zz.com/", "xn--zz", "Punycode"),
        ("https://a\u{05D0}.com/", "a\u{05D0}", "rule 5"),
        (
            "https://1abc.\u{5E9}\u{5DC}\u{5D5}\u{5DD}/",
            "1abc",
            "rule 1",
        ),
        ("https://my_host.example/", "my_host", "U+005F LOW LINE"),
        ("https://pay\u{200D}pal.com/", "pay\u{200D}pal", "U+200D"),
        ("https://a..b.example/", ".", "empty label"),
    ];
    for (iri, span, words) in cases {
        let f = findings(iri, "idn-invalid");
        assert_eq!(f.len(), 1, "{iri}: {f:?}");
        assert_eq!(&iri[f[0].range.clone()], *span, "{iri}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].message.contains(words), "{iri}: {}", f[0].message);
        assert!(
            !f[0].message.contains('\u{200D}'),
            "raw invisible character in {}",
            f[0].message
        );
    }
    let long = format!("https://{}.com/", "a".repeat(64));
    let f = findings(&long, "idn-invalid");
    assert!(f[0].message.contains("64 octets"), "{}", f[0].message);
}

#[test]
fn idn_invalid_is_only_for_dns_hosts() {
    assert_quiet(
        "idn-invalid",
        &[
            "urn:-bad-:x",
            "my-scheme://-bad-/",
            "file://-bad-/x",
            "http://127.0.0.1/",
            "http://[::1]/",
            "file:///path",
            "http://",
            "http://a%ZZ/",
            "https://%FF.example/",
        ],
    );
}
